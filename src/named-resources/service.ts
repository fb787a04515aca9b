import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import type { CreateNamedResourceBody, NamedResource } from './schema.ts';
import type { NamedResourceKind } from './kinds.ts';
import * as repo from './repository.ts';
import { toNamedResource } from './presenter.ts';

type NamedDeps = Pick<Deps, 'db' | 'now'>;

export async function createNamed(
  deps: NamedDeps,
  kind: NamedResourceKind,
  accountId: string,
  input: CreateNamedResourceBody,
): Promise<NamedResource> {
  return toNamedResource(await repo.insertNamed(deps.db, kind, accountId, input.name, deps.now()));
}

export async function listNamed(deps: NamedDeps, kind: NamedResourceKind, accountId: string): Promise<NamedResource[]> {
  return (await repo.listNamed(deps.db, kind, accountId)).map(toNamedResource);
}

/**
 * Conversations, messages and statistics that name it keep its id (history
 * stays as it was); new references to it are refused as unknown.
 */
export async function deleteNamed(deps: NamedDeps, kind: NamedResourceKind, accountId: string, id: string): Promise<void> {
  if (!(await repo.deleteNamed(deps.db, kind, accountId, id))) throw notFound(`${kind.label} ${id}`);
}
