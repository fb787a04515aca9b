import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../http/schemas.ts';

export const Account = Type.Object(
  {
    id: Type.String({ description: '`ac` + 12 characters' }),
    name: Type.String({ description: 'Display name' }),
    timezone: Type.String({ description: 'IANA time zone of the legacy statistics export' }),
    widget_key: Type.String({
      description: 'The public key of the chat widget (`wk_` + 24 characters), read-only: POST /v2/account/widget-key/rotate replaces it',
    }),
    widget_origins: Type.Array(Type.String(), {
      description: 'Origins (`https://shop.example.com`) whose pages may start visitor sessions; empty: the widget is off',
    }),
    widget_identity_required: Type.Boolean({
      description: 'Visitor sessions need a signed identity (docs/widget.md "Identity verification")',
    }),
    widget_identity_secret_set: Type.Boolean({
      description: 'An identity secret exists (POST /v2/account/widget-identity-secret/rotate makes one); it is never shown again',
    }),
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
    widget_origins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255, description: 'An origin: scheme, host and port only, no path' }), {
        maxItems: 100,
        description:
          'Replaces the list of origins allowed to run the widget (at most 100; `https://shop.example.com`, else 422 code `format`); [] turns it off',
      }),
    ),
    widget_identity_required: Type.Optional(
      Type.Boolean({ description: 'Require a signed identity for visitor sessions (needs an identity secret, else 422 code `required`)' }),
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

export const RotatedWidgetKey = Type.Object(
  {
    widget_key: Type.String({
      description: 'The new public widget key; the old one starts no session, and every visitor token is revoked',
    }),
  },
  { title: 'rotated_widget_key' },
);
export type RotatedWidgetKey = Static<typeof RotatedWidgetKey>;

export const RotatedIdentitySecret = Type.Object(
  {
    widget_identity_secret: Type.String({
      description: 'The new secret signing visitor identities (`wis_` + 40 characters), in this response only; the old one stops verifying',
    }),
  },
  { title: 'rotated_identity_secret' },
);
export type RotatedIdentitySecret = Static<typeof RotatedIdentitySecret>;
