import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../http/schemas.ts';

export const Tag = Type.Object(
  {
    id: Type.String({ description: '`tg` + 12 characters', examples: ['tgW1c9JrT0qP4m'] }),
    name: Type.String(),
    created_at: Timestamp,
  },
  { title: 'tag' },
);
export type Tag = Static<typeof Tag>;

export const TagList = Type.Object({ tags: Type.Array(Tag) });

export const CreateTagBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export type CreateTagBody = Static<typeof CreateTagBody>;
