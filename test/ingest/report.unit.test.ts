import { describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/control-characters.ts';
import { addRejections, addWarnings, emptyReport } from '../../src/ingest/report.ts';

describe('the texts of an import report', () => {
  it('write control characters (C0, NUL, DEL, C1) as \\uXXXX, and leave any other text as it is', () => {
    expect(escapeControls('a\u0000b\u0007\t\n\r\u001b[31m\u007f\u0085\u009f')).toBe(
      'a\\u0000b\\u0007\\u0009\\u000a\\u000d\\u001b[31m\\u007f\\u0085\\u009f',
    );
    // Text direction overrides too: shown raw, they reorder the text around them.
    expect(escapeControls('id \u202eevil\u2066')).toBe('id \\u202eevil\\u2066');
    const plain = 'Café Ñandú 😀 \u00a0 \\u0000 "quoted"';
    expect(escapeControls(plain)).toBe(plain);
  });

  it('are escaped as rejections and warnings are added, with the shape of each kept', () => {
    const report = emptyReport(false, 'default');
    addRejections(report, [
      { at: 'in\u0000.ndjson:1', message: 'not valid JSON: "\u0001"' },
      { at: 'in.ndjson:2', path: '$["a\u0085"]', message: 'bad' },
    ]);
    addWarnings(report, ['id \u001b[2J is stale']);
    expect(report.rejections).toEqual([
      { at: 'in\\u0000.ndjson:1', message: 'not valid JSON: "\\u0001"' },
      { at: 'in.ndjson:2', path: '$["a\\u0085"]', message: 'bad' },
    ]);
    expect(report.warnings).toEqual(['id \\u001b[2J is stale']);
  });
});
