import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'

export default tseslint.config(
  {
    ignores: [
      'scratch/',
      'dist/',
      'packages/*/dist/',
      'data/',
      'node_modules/',
      'coverage/',
      'bench/results/',
      'web/dist/',
      'test-results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    // The web app: browser code, React's rules of hooks.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'web/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // Units a person can hold in their head: the service's and the web app's own code.
  {
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'packages/sdk/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.d.ts', 'packages/sdk/src/generated/**'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  // Module boundaries (docs/architecture.md): another module only through its index.ts; the
  // platform, the shared libraries and the database layer know no module.
  {
    files: ['src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./[a-z0-9-]+/(?!index\\.js$)',
              message: 'Import another module through its index.ts (what it offers), never its files.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/*.ts'],
    ignores: ['src/schema.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\./modules/[a-z0-9-]+/(?!index\\.js$)',
              message: 'Import a module through its index.ts (what it offers), never its files.',
            },
          ],
        },
      ],
    },
  },
  {
    // The schema is composed of each module's table types, and of nothing else of theirs.
    files: ['src/schema.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\./modules/[a-z0-9-]+/(?![a-z0-9-]+\\.tables\\.js$)',
              message: 'The schema takes only table types from the modules.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/platform/**/*.ts', 'src/worker/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(modules/|database\\.js$|schema\\.js$|services\\.js$|app\\.js$)',
              message: 'The platform knows no feature: no module, and the database layer only as src/db offers it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(modules/|database\\.js$|schema\\.js$|services\\.js$|app\\.js$)',
              message: 'A shared library knows no module and no schema.',
            },
          ],
        },
      ],
    },
  },
)
