/** Every scope a token may hold (docs/behaviour.md §1). */
export const SCOPES = [
  'agents:read',
  'agents:manage',
  'bots:read',
  'contacts:write',
  'contacts:read',
  'conversations:create',
  'conversations:read',
  'conversations:write',
  'statistics:read',
  'events:read',
  'account:manage',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
