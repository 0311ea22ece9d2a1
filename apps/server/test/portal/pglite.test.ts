import { describeServerSuite } from '../server-suite';

describeServerSuite('pglite');
