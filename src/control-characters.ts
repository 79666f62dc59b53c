/**
 * Control characters (C0 with NUL, DEL, C1) and text direction overrides: text that acts on a terminal,
 * hides in a log, or reorders what is shown around it, rather than shows.
 */
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Whether the text holds a control character or a direction override. */
export const holdsControls = (text: string): boolean => text.search(CONTROLS) !== -1;

/**
 * The text with each control character and direction override written as `\uXXXX`, for text that quotes
 * its input (a report's rejections, a listing of stored names) to show it rather than act on a terminal.
 */
export const escapeControls = (text: string): string =>
  text.replace(CONTROLS, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
