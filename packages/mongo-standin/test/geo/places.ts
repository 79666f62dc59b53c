/** Real-world [longitude, latitude] positions shared by the geo tests. */
export const NEW_YORK_JFK: [number, number] = [-73.7781, 40.6413];

export const EMPIRE_STATE_BUILDING: [number, number] = [-73.9857, 40.7484];
export const TIMES_SQUARE: [number, number] = [-73.9855, 40.758];
export const PENN_STATION: [number, number] = [-73.9935, 40.7506];
export const STATUE_OF_LIBERTY: [number, number] = [-74.0445, 40.6892];
export const BETHESDA_FOUNTAIN: [number, number] = [-73.9712, 40.774];
export const RESERVOIR_CENTER: [number, number] = [-73.9626, 40.7856];

/** A ZIP-code-sized area around Penn Station and Chelsea (roughly Manhattan's 10001). */
export const CHELSEA_10001 = {
  type: 'Polygon',
  coordinates: [
    [
      [-74.0087, 40.7526],
      [-73.9988, 40.7396],
      [-73.9859, 40.7453],
      [-73.9871, 40.7504],
      [-73.9936, 40.7561],
      [-74.0087, 40.7526],
    ],
  ],
};

/** Central Park, with the Jacqueline Kennedy Onassis Reservoir cut out as a hole. */
export const CENTRAL_PARK_WITHOUT_RESERVOIR = {
  type: 'Polygon',
  coordinates: [
    [
      [-73.973, 40.7644],
      [-73.9498, 40.7968],
      [-73.958, 40.8006],
      [-73.9819, 40.7681],
      [-73.973, 40.7644],
    ],
    [
      [-73.9683, 40.7818],
      [-73.9596, 40.7835],
      [-73.9612, 40.7905],
      [-73.9667, 40.7884],
      [-73.9683, 40.7818],
    ],
  ],
};

/** A box across the antimeridian around Fiji's main islands. */
export const FIJI_ACROSS_ANTIMERIDIAN = {
  type: 'Polygon',
  coordinates: [
    [
      [177, -19],
      [-178, -19],
      [-178, -15],
      [177, -15],
      [177, -19],
    ],
  ],
};

/** A ring at 80°N enclosing the North Pole. */
export const ARCTIC_CAP = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 80],
      [90, 80],
      [180, 80],
      [-90, 80],
      [0, 80],
    ],
  ],
};

export const point = (coordinates: [number, number]) => ({ type: 'Point', coordinates });
