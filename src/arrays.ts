/**
 * `items.at(index)` where the index is valid by construction (a loop's bound, a parallel array, a non-empty list):
 * none there is a bug, thrown as a plain Error rather than read on as undefined.
 */
export function itemAt<T>(items: { readonly length: number; at(index: number): T | undefined }, index: number): T {
  if (!Number.isInteger(index) || index < -items.length || index >= items.length) {
    throw new Error(`No item at index ${index} of ${items.length}`);
  }
  return items.at(index) as T;
}
