/**
 * The parameters of one SQL statement, so its text never holds a value: `add` appends
 * a value and returns the placeholder to write (`$3`); `addAll` names several at once,
 * and a name can be written as often as needed, always meaning the same parameter.
 * Builders take the placeholders they use, never positions kept in sync by hand.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  addAll<K extends string>(named: Record<K, unknown>): Record<K, string> {
    return Object.fromEntries(Object.entries(named).map(([name, value]) => [name, this.add(value)])) as Record<K, string>;
  }
}
