/** Client input quoted back in an error message: enough to recognise, never the whole of it. */
export function echoInput(value: string, maxLength = 64): string {
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}… (${value.length} characters)` : clean;
}
