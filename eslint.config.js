import js from '@eslint/js'
import stylistic from '@stylistic/eslint-plugin'
import tseslint from 'typescript-eslint'

const services = ['orchestrator', 'trips', 'feed', 'marketplace']

export default tseslint.config(
  // web/dashboard/src/api/schema.d.ts is generated from openapi/orchestrator.json.
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'test-results/', 'web/**/dist/', '.quartet/', 'web/dashboard/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Prettier wraps code at 140 columns; what it cannot wrap (strings, comments, regexes) is wrapped by hand.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    plugins: { '@stylistic': stylistic },
    rules: { '@stylistic/max-len': ['error', { code: 140, tabWidth: 2 }] }
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] }] }
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/services/*'], message: 'core/ must not import services/' }] }]
    }
  },
  // Services may import core/ but never each other.
  ...services.map((name) => ({
    files: [`src/services/${name}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: services
            .filter((other) => other !== name)
            .map((other) => ({
              group: [`**/services/${other}/**`, `**/services/${other}`, `../${other}/**`, `../../${other}/**`],
              message: `services/${name} must not import services/${other}: share through src/core/`
            }))
        }
      ]
    }
  })),
  // A module reaches another module of its service only through that module's service file
  // (types excepted: app.ts passes repositories in, modules only name their types; schemas and
  // renderers are shared wire shapes and may be imported directly).
  ...services.map((name) => ({
    files: [`src/services/${name}/modules/**/*.ts`],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...services
              .filter((other) => other !== name)
              .map((other) => ({
                group: [`**/services/${other}/**`, `../../../${other}/**`],
                message: `services/${name} must not import services/${other}`
              })),
            {
              group: ['../*/*.repository.js', '../*/*.routes.js'],
              allowTypeImports: true,
              message: 'import another module only through its service file (<group>.service.ts)'
            }
          ]
        }
      ]
    }
  })),
  // The CLI and tests compose services; they may import any of them.
  { files: ['src/cli/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } }
  }
)
