import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../http/schemas.ts';
import { SCOPES } from '../auth/scopes.ts';

const Scopes = Type.Array(StringEnum(SCOPES), { minItems: 1, maxItems: 32, description: `Any of: ${SCOPES.join(', ')}` });

export const TokenRecord = Type.Object(
  {
    id: Type.String({ description: '`tk` + 12 characters' }),
    name: Type.String({ description: 'What the token is for' }),
    scopes: Scopes,
    created_at: Timestamp,
  },
  { title: 'token' },
);
export type TokenRecord = Static<typeof TokenRecord>;

export const CreatedToken = Type.Object(
  {
    id: Type.String({ description: '`tk` + 12 characters; DELETE /v2/tokens/{id} revokes it' }),
    name: Type.String({ description: 'What the token is for' }),
    scopes: Scopes,
    token: Type.String({ description: 'The bearer token: shown here only, never again' }),
    created_at: Timestamp,
  },
  { title: 'created_token' },
);

export const TokenList = Type.Object(
  { tokens: Type.Array(TokenRecord, { description: 'Tokens not revoked; secrets are never listed' }) },
  { title: 'token_list' },
);

export const CreateTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, description: 'What the token is for' }), scopes: Scopes },
  { additionalProperties: false },
);
export type CreateTokenBody = Static<typeof CreateTokenBody>;
