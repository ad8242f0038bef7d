/**
 * The app's GraphQL client: POST /graphql with JSON. Mutations carry the token kept in local storage;
 * a refusal for a missing or wrong token surfaces as TokenError so the UI can ask for it and retry.
 */
export class GqlError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

export class TokenError extends GqlError {}

const TOKEN_KEY = 'hybrid-mem.dashboard-token';

export const tokenStore = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (t: string): void => localStorage.setItem(TOKEN_KEY, t),
  clear: (): void => localStorage.removeItem(TOKEN_KEY),
};

interface GqlBody<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  const token = tokenStore.get();
  if (token && /^\s*mutation\b/.test(query)) headers.authorization = `Bearer ${token}`;
  const res = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  let body: GqlBody<T>;
  try {
    body = (await res.json()) as GqlBody<T>;
  } catch {
    throw new GqlError(`the server answered ${res.status} without JSON`, null);
  }
  const err = body.errors?.[0];
  if (err) {
    const code = err.extensions?.code ?? null;
    if (code === 'MEM_ERR_TOKEN_REQUIRED' || code === 'MEM_ERR_TOKEN_INVALID') throw new TokenError(err.message, code);
    throw new GqlError(err.message, code);
  }
  if (!body.data) throw new GqlError(`the server answered ${res.status} without data`, null);
  return body.data;
}
