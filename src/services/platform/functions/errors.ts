import { defineErrors } from '../../../platform/core/errors.ts';

// Every error platform/functions raises, once (STYLE.md "An error catalogue").
export const E = defineErrors({
  functionNotFound: {
    reason: 'OBJECT_NOT_FOUND',
    message: 'No function of this tenant is bound to {primitive}',
  },
  functionNameNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Function {name} not found' },
  developerNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Developer {id} not found' },
  consultantNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Consultant {id} not found' },
  unknownPrimitive: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'primitiveName': {primitive} is no query or action served here",
  },
  unbindable: {
    reason: 'BAD_REQUEST',
    message: "Invalid field '{field}': functions cannot be bound to the platform's own {service} service",
  },
  noCode: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Function {name} has no uploaded code yet: it cannot be {what}',
  },
  codeTooLarge: {
    reason: 'BAD_REQUEST',
    message: "Invalid field 'code': the code of a function is at most {max} bytes",
  },
  invalidCode: { reason: 'BAD_REQUEST', message: "Invalid field 'code': it does not compile: {error}" },
  disabled: {
    reason: 'UNPROCESSABLE',
    status: 409,
    message: 'Function {name} is DISABLED: set its stage to DRAFT or ACTIVE to run it',
  },
});
