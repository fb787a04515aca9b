import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../http/schemas.ts';
import type { NamedResourceKind } from './kinds.ts';

export const NamedResource = (kind: NamedResourceKind) =>
  Type.Object(
    {
      id: Type.String({ description: `\`${kind.prefix}\` + 12 characters`, examples: [kind.example] }),
      name: Type.String({ description: 'Display name; not unique' }),
      created_at: Timestamp,
    },
    { title: kind.singular, description: kind.purpose },
  );
export type NamedResource = Static<ReturnType<typeof NamedResource>>;

export const NamedResourceList = (kind: NamedResourceKind) =>
  Type.Object({ [kind.plural]: Type.Array(NamedResource(kind), { description: 'Oldest first' }) }, { title: `${kind.singular}_list` });

export const CreateNamedResourceBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, description: 'Display name; not unique' }) },
  { additionalProperties: false },
);
export type CreateNamedResourceBody = Static<typeof CreateNamedResourceBody>;
