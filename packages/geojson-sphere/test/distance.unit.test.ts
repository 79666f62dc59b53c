import { describe, expect, it } from 'vitest';
import { destination, distanceMeters, EARTH_RADIUS_METERS } from '../src/index.ts';
import {
  EMPIRE_STATE_BUILDING,
  LOS_ANGELES_LAX,
  NASHVILLE_BNA,
  NEW_YORK_JFK,
  TIMES_SQUARE,
} from './places.ts';

/** Haversine central angle: an independent formula to check the vector-based distance against. */
function haversineRadians([lng1, lat1]: [number, number], [lng2, lat2]: [number, number]): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * Math.asin(Math.sqrt(h));
}

describe('distanceMeters', () => {
  it('uses the 6378.1 km radius MongoDB converts radians with', () => {
    expect(EARTH_RADIUS_METERS).toBe(6_378_100);
    expect(distanceMeters([0, 0], [180, 0])).toBeCloseTo(Math.PI * 6_378_100, 3);
  });

  it('matches the classic Nashville–Los Angeles great-circle distance', () => {
    // 2887.26 km on a 6372.8 km sphere, so 2889.66 km on MongoDB's.
    expect(distanceMeters(NASHVILLE_BNA, LOS_ANGELES_LAX) / 1000).toBeCloseTo(2889.66, 1);
  });

  it('agrees with the haversine formula for JFK to LAX', () => {
    const expected = haversineRadians(NEW_YORK_JFK, LOS_ANGELES_LAX) * EARTH_RADIUS_METERS;
    expect(distanceMeters(NEW_YORK_JFK, LOS_ANGELES_LAX)).toBeCloseTo(expected, 3);
    expect(expected / 1000).toBeGreaterThan(3970); // about 3979 km
    expect(expected / 1000).toBeLessThan(3990);
  });

  it('is accurate for short city distances and zero for the same point', () => {
    const expected = haversineRadians(EMPIRE_STATE_BUILDING, TIMES_SQUARE) * EARTH_RADIUS_METERS;
    expect(distanceMeters(EMPIRE_STATE_BUILDING, TIMES_SQUARE)).toBeCloseTo(expected, 6);
    expect(expected).toBeGreaterThan(1000);
    expect(expected).toBeLessThan(1200);
    expect(distanceMeters(TIMES_SQUARE, TIMES_SQUARE)).toBe(0);
  });

  it('measures across the antimeridian and over the poles', () => {
    expect(distanceMeters([179.5, 0], [-179.5, 0])).toBeCloseTo((Math.PI / 180) * EARTH_RADIUS_METERS, 3);
    expect(distanceMeters([0, 89], [180, 89])).toBeCloseTo((2 * Math.PI * EARTH_RADIUS_METERS) / 180, 3);
  });
});

describe('destination', () => {
  it('lies the given angle away along the bearing, its longitude wrapped, also across a pole', () => {
    for (const [start, bearing, radians] of [
      [TIMES_SQUARE, 1, 1e-4],
      [[179.9, -16.5], Math.PI / 2, 0.01],
      [[10, 89.9], 0, 0.01],
      [[-60, -10], 4, 1.5],
    ] as [[number, number], number, number][]) {
      const end = destination(start, bearing, radians);
      expect(haversineRadians(start, end)).toBeCloseTo(radians, 9);
      expect(end[0]).toBeGreaterThanOrEqual(-180);
      expect(end[0]).toBeLessThan(180);
    }
    // Due east on the equator, and due north from a point by its colatitude to the pole.
    expect(destination([0, 0], Math.PI / 2, Math.PI / 4)).toEqual([
      expect.closeTo(45, 9),
      expect.closeTo(0, 9),
    ]);
    expect(destination([30, 60], 0, Math.PI / 6)[1]).toBeCloseTo(90, 9);
  });
});
