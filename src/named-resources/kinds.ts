import type { IdPrefix } from '../ids.ts';

/**
 * Groups and tags are one kind of resource under two names: an account's
 * `{id, name, created_at}` that other records refer to by id. One description
 * per kind drives its table, routes, schemas and messages.
 */
export interface NamedResourceKind {
  /** Table, URL segment and list key. */
  plural: 'groups' | 'tags';
  /** The record's OpenAPI title. */
  singular: 'group' | 'tag';
  /** Capitalised, for messages: `Group gr... not found`. */
  label: 'Group' | 'Tag';
  prefix: IdPrefix;
  example: string;
  /** What the resource is for, in the OpenAPI document. */
  purpose: string;
}

export const GROUPS: NamedResourceKind = {
  plural: 'groups',
  singular: 'group',
  label: 'Group',
  prefix: 'gr',
  example: 'grq3F0xXb2Lk9A',
  purpose: 'A group routes conversations to its agents (a conversation `group_id`, an agent `group_ids`) and filters statistics.',
};

export const TAGS: NamedResourceKind = {
  plural: 'tags',
  singular: 'tag',
  label: 'Tag',
  prefix: 'tg',
  example: 'tgW1c9JrT0qP4m',
  purpose: 'A tag labels conversations (their `tags`) and filters statistics.',
};
