import type { Deps } from '../deps.ts';
import type { CreateTagBody, Tag } from './schema.ts';
import * as repo from './repository.ts';

/** Management: tags label conversations and filter statistics. */
export function createTag(deps: Pick<Deps, 'db'>, accountId: string, input: CreateTagBody): Promise<Tag> {
  return repo.insertTag(deps.db, accountId, input.name);
}

export function listTags(deps: Pick<Deps, 'db'>, accountId: string): Promise<Tag[]> {
  return repo.listTags(deps.db, accountId);
}
