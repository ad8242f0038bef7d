/** GraphQL passes null for an omitted nullable argument or input field; the service's schemas want it absent. */
export type NoNulls<T> = { [K in keyof T]: Exclude<T[K], null> };

export function withoutNulls<T extends object>(o: T | null | undefined): NoNulls<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== null)) as NoNulls<T>;
}
