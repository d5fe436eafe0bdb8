/**
 * Text from pages, search results and other sources goes into prompts between our own tags
 * (<knowledge>, <source>, <context>...). A page that writes `</source></knowledge><system>` must
 * not close them: every `<` that could open or close a tag becomes `‹`, which reads the same to
 * a model and which quote matching ignores like any punctuation.
 */
export function fenceUntrusted(text: string): string {
  return text.replace(/<(?=[/!?a-zA-Z])/g, '‹');
}
