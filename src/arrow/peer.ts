/**
 * The types of the optional peer `apache-arrow`, for every declaration that
 * names one: without the package they are `any`, and an app's type check
 * (`skipLibCheck: false`) still passes, which a plain import of the package's
 * types fails (TS2307). The comment below carries into the .d.ts.
 */
/** @ts-ignore the optional peer: without it these types are `any` */
export type { Data, DataType, Field, RecordBatch, Schema, Table, Vector } from 'apache-arrow';
