import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** A workspace package is used through its one public entry point (its name), never a path inside it. */
const deepPackageImports = [
  {
    group: [
      'mongo-standin/*',
      'geojson-sphere/*',
      '**/packages/*/**',
      '**/mongo-standin/src/**',
      '**/geojson-sphere/src/**',
    ],
    message: 'Import a workspace package by its name only: its public entry point (src/index.ts).',
  },
];

export default tseslint.config(
  { ignores: ['node_modules', '.data', 'dist', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: deepPackageImports }],
      'no-restricted-syntax': [
        'error',
        {
          // no-restricted-imports does not look at import(): the same rule for it (esquery's regex
          // literals cannot hold a slash, hence \u002F).
          selector:
            'ImportExpression[source.value=/^(mongo-standin|geojson-sphere)\\u002F|packages\\u002F|(mongo-standin|geojson-sphere)\\u002Fsrc\\u002F/]',
          message: deepPackageImports[0].message,
        },
      ],
    },
  },
  {
    // The product loads the stand-in only when it starts an embedded database, by import() in
    // src/db/embedded.ts: a server on MongoDB never loads it.
    files: ['src/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'mongo-standin',
              message:
                'The app loads the stand-in only on demand: use import() where the embedded database starts.',
              allowTypeImports: true,
            },
          ],
          patterns: deepPackageImports,
        },
      ],
    },
  },
);
