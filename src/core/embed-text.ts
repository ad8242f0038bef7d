/** What gets embedded for a fact: its entity (when it has one) gives the sentence its subject. */
export function embedText(f: { readonly text: string; readonly entity: string | null }): string {
  return f.entity ? `${f.entity}: ${f.text}` : f.text;
}
