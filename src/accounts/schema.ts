import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../http/schemas.ts';

export const Account = Type.Object(
  {
    id: Type.String({ description: '`ac` + 12 characters' }),
    name: Type.String({ description: 'Display name' }),
    timezone: Type.String({ description: 'IANA time zone of the legacy statistics export' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'account' },
);
export type Account = Static<typeof Account>;

export const UpdateAccountBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Display name' })),
    timezone: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'An IANA name such as `Europe/Paris` (else 422, code `format`)' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateAccountBody = Static<typeof UpdateAccountBody>;

export const RotatedApiKey = Type.Object(
  {
    api_key: Type.String({
      description: 'The new legacy apiKey (`ak_` + 32 characters), in this response only; the old one stops working at once',
    }),
  },
  { title: 'rotated_api_key' },
);
export type RotatedApiKey = Static<typeof RotatedApiKey>;
