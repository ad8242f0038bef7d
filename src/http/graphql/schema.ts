/**
 * The executable schema: the SDL plus resolvers attached to its fields. Built once per server; it imports
 * no transport (the adapters in ../adapters do).
 */
import { buildSchema, GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { mutationFields } from './mutation.js';
import { queryFields } from './query.js';
import { SDL } from './sdl.js';
import { subscriptionFields } from './subscription.js';
import { conflictFields, edgeFields, eventFields, factFields, suggestedLinkFields, type FieldMap } from './views.js';

const RESOLVERS: Readonly<Record<string, FieldMap<never>>> = {
  Query: queryFields,
  Mutation: mutationFields,
  Fact: factFields,
  Edge: edgeFields,
  Conflict: conflictFields,
  SuggestedLink: suggestedLinkFields,
  MemoryEvent: eventFields,
};

export function createSchema(): GraphQLSchema {
  const schema = buildSchema(SDL);
  for (const [typeName, fields] of Object.entries(RESOLVERS)) {
    const type = schema.getType(typeName);
    if (!(type instanceof GraphQLObjectType)) throw new Error(`schema has no object type ${typeName}`);
    const defs = type.getFields();
    for (const [name, resolve] of Object.entries(fields)) {
      const field = defs[name];
      if (!field) throw new Error(`schema has no field ${typeName}.${name}`);
      field.resolve = resolve as typeof field.resolve;
    }
  }
  const sub = schema.getSubscriptionType();
  for (const [name, r] of Object.entries(subscriptionFields)) {
    const field = sub?.getFields()[name];
    if (!field) throw new Error(`schema has no subscription ${name}`);
    field.subscribe = r.subscribe as typeof field.subscribe;
    field.resolve = r.resolve as typeof field.resolve;
  }
  return schema;
}
