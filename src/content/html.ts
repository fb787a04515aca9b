/**
 * Message HTML sanitising (DECISIONS 5). PLACEHOLDER until the sanitiser lands:
 * the real implementation uses sanitize-html and keeps only a and br.
 */
export function sanitizeHtml(html: string): { html: string; text: string } {
  const text = html.replace(/<[^>]*>/g, '');
  return { html: text.replace(/[<>&"]/g, ''), text };
}
