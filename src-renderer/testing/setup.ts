import { configure } from '@testing-library/react';

// `findBy…` and `waitFor` wait for what the person would see. The default of 1 s is too short on
// a loaded 2-core machine, where a lazily loaded view can take longer to arrive; waiting longer
// costs nothing when it arrives at once, and a test still fails if it never does.
configure({ asyncUtilTimeout: 10_000 });
