import type { ServiceArea } from '../hsds/types.ts';
import type { NewId } from '../hsds/uuid.ts';
import { rectangle, type City, type Neighbourhood } from '../sample/cities.ts';

// HSDS 3.0 allows extent_type geojson, topojson, kml and text; it has no postcode type, so a list
// of ZIP codes is written as extent_type "text" with the codes comma-separated in `extent`.

export function neighbourhoodArea(city: City, neighbourhood: Neighbourhood, newId: NewId): ServiceArea {
  const geometry =
    neighbourhood.polygons.length === 1
      ? { type: 'Polygon', coordinates: neighbourhood.polygons }
      : { type: 'MultiPolygon', coordinates: neighbourhood.polygons.map((ring) => [ring]) };
  return {
    id: newId(`service-area/${neighbourhood.key}`),
    name: `${neighbourhood.name}, ${city.name}`,
    description: `Residents of ${neighbourhood.name} (ZIP codes ${neighbourhood.zipCodes.join(', ')}).`,
    extent: JSON.stringify(geometry),
    extent_type: 'geojson',
  };
}

export function cityArea(city: City, newId: NewId): ServiceArea {
  const { west, south, east, north } = city.bounds;
  return {
    id: newId(`service-area/${city.key}`),
    name: `City of ${city.name}`,
    description: `Anyone living within the ${city.name} city limits.`,
    extent: JSON.stringify({ type: 'Polygon', coordinates: [rectangle(west, south, east, north)] }),
    extent_type: 'geojson',
  };
}

export function zipCodeArea(name: string, zipCodes: string[], newId: NewId): ServiceArea {
  return {
    id: newId(`service-area/zip/${zipCodes.join('-')}`),
    name,
    description: `Residents of ZIP codes ${zipCodes.join(', ')}.`,
    extent: zipCodes.join(','),
    extent_type: 'text',
  };
}
