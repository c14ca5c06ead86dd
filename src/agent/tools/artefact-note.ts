const SHOWN_ARTEFACTS = 20;

/** Said once per path, the first time a test run writes it. */
export function artefactNote(first: string[]): string {
  if (first.length === 0) return '';
  const shown = first.slice(0, SHOWN_ARTEFACTS).join(', ');
  const more = first.length > SHOWN_ARTEFACTS ? ` and ${first.length - SHOWN_ARTEFACTS} more` : '';
  return `\n[the tests wrote ${shown}${more}: test artefacts, left out of the verified tree and the commit whatever later runs write there; edit one with edit_file only if it really belongs to the change]`;
}
