import type { Deps } from '../deps.ts';
import type { CreateGroupBody, Group } from './schema.ts';
import * as repo from './repository.ts';

/** Management: a group routes conversations to (and counts statistics for) its agents. */
export function createGroup(deps: Pick<Deps, 'db'>, accountId: string, input: CreateGroupBody): Promise<Group> {
  return repo.insertGroup(deps.db, accountId, input.name);
}

export function listGroups(deps: Pick<Deps, 'db'>, accountId: string): Promise<Group[]> {
  return repo.listGroups(deps.db, accountId);
}
