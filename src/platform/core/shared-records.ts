import { Enum, GENERIC_ERROR, Record, Type } from './schema.ts';

// The shared records of spec 000 §2.2, declared once: every service's documents carry each of them
// as a named definition (http/documents.ts), whether or not an operation of the service uses it, as
// the spec's services declare them (spec 001 §6: the notification payloads are "declared by every
// service here but used by no operation"). The standard operations use `dependency`, `upDown` and
// `checkData` (standard.ts); `genericError` is the body of every failure (schema.ts).

export const BasicErrorPayload = Record(
  'basicErrorPayload',
  Type.Object(
    {
      message: Type.Optional(Type.String({ description: 'text for the user, if any' })),
      errorCode: Type.Optional(
        Type.String({ description: "the service's own code of the error, for programs to read" }),
      ),
    },
    { description: 'An error as a message and a program-readable code' },
  ),
);

export const Dependency = Record(
  'dependency',
  Type.Object(
    { domain: Type.String(), service: Type.String(), version: Type.String() },
    { description: 'A service this service calls (an element of the getDependencies result)' },
  ),
);

export const BlobReference = Record(
  'blobReference',
  Type.Object(
    {
      targetObjectId: Type.String({ description: 'id of the object referred to' }),
      domainName: Type.Optional(Type.String({ description: 'domain of the service that holds it' })),
      serviceName: Type.Optional(Type.String({ description: 'service that holds it' })),
      targetCopyId: Type.Optional(Type.String({ description: 'id of the copy referred to' })),
    },
    { description: 'A reference to a stored object (a file) of a service' },
  ),
);

export const UpDown = Record('upDown', Enum(['UP', 'DOWN']));

export const CheckData = Record(
  'checkData',
  Type.Object(
    { name: Type.String(), status: UpDown },
    { description: 'One health check: what was checked and its status' },
  ),
);

export const UserNotificationKind = Record(
  'userNotificationKind',
  Enum(['Operational', 'Management', 'News'], { description: 'kind of a notification to a user' }),
);

export const UserNotificationPriority = Record(
  'userNotificationPriority',
  Enum(['Error', 'Alert', 'None'], { description: 'priority of a notification to a user' }),
);

export const EventEmailFormat = Record(
  'eventEmailFormat',
  Enum(['HTML', 'PLAIN_TEXT'], { description: "format of a notification e-mail's content" }),
);

/**
 * The base of the notification payloads. `_discriminator` names the payload's record
 * (`notifyUserEventPayload`, `emailNotifyUserEventPayload`, `pushNotifyUserEventPayload`): the
 * documents write the keyword in each format's dialect (http/records.ts); validation ignores it.
 */
export const NotifyUserEventPayload = Record(
  'notifyUserEventPayload',
  Type.Object(
    {
      notificationKind: UserNotificationKind,
      notificationPriority: UserNotificationPriority,
      notificationSubject: Type.String({ description: 'subject of the notification' }),
      notificationContent: Type.String({ description: 'content of the notification' }),
      sourceDomain: Type.String({ description: 'domain of the service that notifies' }),
      sourceService: Type.String({ description: 'service that notifies' }),
      destinationUser: Type.String({ description: 'the user notified' }),
      _discriminator: Type.String({
        description:
          "the payload's record: notifyUserEventPayload, emailNotifyUserEventPayload or pushNotifyUserEventPayload",
      }),
      notificationClass: Type.Optional(Type.String({ description: 'class of the notification' })),
      notificationOrigin: Type.Optional(
        Type.String({ description: 'free text: where the notification comes from' }),
      ),
      link: Type.Optional(Type.String({ description: 'a link the notification leads to' })),
    },
    {
      description: 'A notification to a user',
      discriminator: { propertyName: '_discriminator' },
    },
  ),
);

export const EmailNotifyUserEventPayload = Record(
  'emailNotifyUserEventPayload',
  Type.Intersect(
    [
      NotifyUserEventPayload,
      Type.Object({
        from: Type.String({ description: 'sender of the e-mail' }),
        sendTo: Type.Optional(Type.Array(Type.String(), { description: 'extra recipients' })),
        format: Type.Optional(EventEmailFormat),
      }),
    ],
    { description: 'A notification to a user by e-mail' },
  ),
);

export const PushNotifyUserEventPayload = Record(
  'pushNotifyUserEventPayload',
  Type.Intersect(
    [
      NotifyUserEventPayload,
      Type.Object({ applicationId: Type.String({ description: 'mobile application identifier' }) }),
    ],
    { description: 'A notification to a user by push, to a mobile application' },
  ),
);

/** Every record of spec 000 §2.2: each service's documents name them all. */
export const SHARED_RECORDS = [
  GENERIC_ERROR,
  BasicErrorPayload,
  Dependency,
  BlobReference,
  UpDown,
  CheckData,
  NotifyUserEventPayload,
  UserNotificationKind,
  UserNotificationPriority,
  EmailNotifyUserEventPayload,
  EventEmailFormat,
  PushNotifyUserEventPayload,
];
