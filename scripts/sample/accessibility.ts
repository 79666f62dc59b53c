import type { SiteKind } from './sites.ts';

// Accessibility arrangements typical of each kind of building.

export interface AccessibilityNote {
  description: string;
  details?: string;
}

export const accessibilityBySiteKind: Record<SiteKind, AccessibilityNote[]> = {
  library: [
    { description: 'Step-free entrance and elevator to all public floors.' },
    { description: 'Hearing loop at the service desk.', details: 'Switch hearing aids to the T setting.' },
  ],
  'community-centre': [
    { description: 'Ramp at the main entrance; accessible restrooms on the ground floor.' },
  ],
  clinic: [
    { description: 'Automatic doors, wheelchairs available at the entrance.' },
    {
      description: 'Sign language interpreters on request.',
      details: 'Ask when booking, at least two days ahead.',
    },
  ],
  'food-bank': [{ description: 'Loading dock pick-up for clients who cannot carry boxes.' }],
};
