/**
 * A geometry MongoDB's GeoParser rejects. The reason is MongoDB's wording; each caller wraps it the way
 * the server does in its context (BadValue in a query, Location16755 on insert, no match when stored).
 */
export class InvalidGeometry extends Error {
  override readonly name = 'InvalidGeometry';
}
