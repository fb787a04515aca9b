import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../http/schemas.ts';

export const Group = Type.Object(
  {
    id: Type.String({ description: '`gr` + 12 characters', examples: ['grq3F0xXb2Lk9A'] }),
    name: Type.String(),
    created_at: Timestamp,
  },
  { title: 'group' },
);
export type Group = Static<typeof Group>;

export const GroupList = Type.Object({ groups: Type.Array(Group) });

export const CreateGroupBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export type CreateGroupBody = Static<typeof CreateGroupBody>;
