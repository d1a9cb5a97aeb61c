/** The names a sequence position may take: one tool, or a list of alternatives. */
export function positionTools(position: string | readonly string[]): readonly string[] {
  return typeof position === 'string' ? [position] : position;
}
