import { defineService } from '../../../platform/core/registry.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { BLOB_PREFIX, codeUploaded } from './code.ts';
import { consultantEntity, developerEntity, functionEntity } from './entities.ts';
import { environmentOperations } from './environment.ts';
import { functionOperations } from './functions.ts';
import { peopleOperations } from './people.ts';

// platform/functions 9.19.1 (spec 001 §4.10; docs/functions.md): the tenant's user functions, each
// bound to a primitive of a service, their code versions in the blob store, the sandbox that runs
// them (platform/functions), and the developers and consultants who write them.

const { getMetadata } = standardOperations({ metadata: true });

export default defineService({
  domain: 'platform',
  name: 'functions',
  version: '9.19.1',
  title: 'Functions',
  description: 'Management of user functions, developers and consultants of the tenant environment',
  operations: {
    ...environmentOperations,
    ...functionOperations,
    ...peopleOperations,
    getMetadata: getMetadata!,
  },
  entities: [functionEntity, developerEntity, consultantEntity],
  blobUploads: { [BLOB_PREFIX]: codeUploaded },
});
