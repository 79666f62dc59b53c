import type { Json } from '../../src/json.ts';

/** The member of the document a local `$ref` (`#/components/schemas/Service`) points to, if any. */
export function resolveRef(document: object, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Json)[key] : undefined),
      document,
    );
}

/** An object that may be a Reference Object, followed to what it refers to. */
export function dereferenced<Target = Json>(document: object, node: unknown): Target {
  const ref = (node as { $ref?: unknown }).$ref;
  return (typeof ref === 'string' ? resolveRef(document, ref) : node) as Target;
}

/** Every `$ref` anywhere in a value, with where it is. */
export function refsIn(value: unknown, at = '#'): { at: string; ref: string }[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, member]) =>
    key === '$ref' && typeof member === 'string'
      ? [{ at, ref: member }]
      : refsIn(member, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}
