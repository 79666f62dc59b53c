/** Real-world [longitude, latitude] positions and areas shared by the geometry tests. */
export const NASHVILLE_BNA: [number, number] = [-86.67, 36.12];
export const LOS_ANGELES_LAX: [number, number] = [-118.4, 33.94];
export const NEW_YORK_JFK: [number, number] = [-73.7781, 40.6413];

export const EMPIRE_STATE_BUILDING: [number, number] = [-73.9857, 40.7484];
export const TIMES_SQUARE: [number, number] = [-73.9855, 40.758];
export const PENN_STATION: [number, number] = [-73.9935, 40.7506];
export const RESERVOIR_CENTER: [number, number] = [-73.9626, 40.7856];

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

export const point = (coordinates: [number, number]) => ({ type: 'Point', coordinates });
