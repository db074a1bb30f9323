// The layers of docs/platform.md "Layers", enforced in `npm test` (`npm run layers`). Each rule's
// name is what a failing run prints; its comment says why the rule exists. Test code (tests beside
// the code, fixtures, test support) may reach across layers to set a scene, but never into a cycle,
// and product code never imports it.
const RUNTIMES = '(http|auth|events|jobs|entities|imports|exports|blobs)';
const TEST_CODE = '(\\.test\\.ts|\\.test-support\\.ts|(^|/|-)fixtures\\.ts)$';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle makes every file in it depend on every other: none anywhere in src/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing-above-it',
      comment:
        'src/platform/core declares (operations, services, the context, errors, schemas, the database); ' +
        'it imports no runtime, no composition and no service. A runtime it needs is an interface in core/platform.ts.',
      severity: 'error',
      from: { path: '^src/platform/core/', pathNot: TEST_CODE },
      to: { path: '^src/', pathNot: '^src/platform/core/' },
    },
    {
      name: 'runtime-imports-only-core',
      comment:
        'A runtime (http, auth, events, jobs, entities, imports, exports, blobs) uses the core and its own folder; ' +
        'another runtime only through an interface the core declares, wired by the composition (app.ts).',
      severity: 'error',
      from: { path: `^src/platform/${RUNTIMES}/`, pathNot: TEST_CODE },
      to: { path: '^src/platform/', pathNot: ['^src/platform/$1/', '^src/platform/core/'] },
    },
    {
      name: 'platform-imports-no-service',
      comment:
        'The platform serves whatever services it is handed; the list is given to buildApp, never imported.',
      severity: 'error',
      from: { path: '^src/platform/', pathNot: TEST_CODE },
      to: { path: '^src/services/' },
    },
    {
      name: 'only-the-composition-knows-every-part',
      comment: 'app.ts and server.ts assemble the platform; nothing below them imports them.',
      severity: 'error',
      from: { path: '^src/(platform/.+/|services/)', pathNot: TEST_CODE },
      to: { path: '^src/platform/(app|server)\\.ts$' },
    },
    {
      name: 'service-imports-only-contracts-of-others',
      comment:
        'A service calls another through ctx.call; what two services share, its owner publishes in its contract.ts, the only file of it another service imports.',
      severity: 'error',
      from: { path: '^src/services/([^/]+)/([^/]+)/', pathNot: TEST_CODE },
      to: {
        path: '^src/services/',
        pathNot: ['^src/services/$1/$2/', '^src/services/[^/]+/[^/]+/contract\\.ts$'],
      },
    },
    {
      name: 'contract-imports-no-tables-or-handlers',
      comment:
        'A contract holds schemas, types, constants and small protocols: importing it must not bring tables or handlers along.',
      severity: 'error',
      from: { path: '^src/services/[^/]+/[^/]+/contract\\.ts$' },
      to: { path: '^src/services/[^/]+/[^/]+/(tables(\\.ts|/)|entities\\.ts$|service\\.ts$)' },
    },
    {
      name: 'code-imports-no-test-code',
      comment: 'Fixtures and test support serve tests; the product never loads them.',
      severity: 'error',
      from: { path: '^src/', pathNot: TEST_CODE },
      to: { path: [TEST_CODE, '^test/'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a removed file.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
    combinedDependencies: false,
  },
};
