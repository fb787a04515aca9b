import assert from 'node:assert/strict';
import type { TestAccount, TestApp } from './harness.ts';

/** An account whose widget is allowed on one origin, with that origin and the account's widget key. */
export interface WidgetSite {
  account: TestAccount;
  origin: string;
  widgetKey: string;
}

let sites = 0;

/**
 * A new account whose widget runs on a new origin (`https://<name><n>.example.com`): an origin of its own for each
 * site, so the instance's brief cache of allowed origins never carries over from one test to another.
 */
export async function widgetSite(t: TestApp, name: string): Promise<WidgetSite> {
  const account = await t.account();
  const origin = `https://${name}${++sites}.example.com`;
  const res = await t.client(account.token).patch('/v2/account', { widget_origins: [origin] });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { account, origin, widgetKey: res.body.widget_key };
}
