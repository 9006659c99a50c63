import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Testing Library's findBy* and waitFor give up after 1 s by default. CI runs Jest's workers on two
// shared cores, where a screen that appears after a fetch and a state update can take longer than that
// (bench/README.md, "The test runners' waits"). They wait up to 5 s; a state that never comes still fails.
configure({ asyncUtilTimeout: 5000 });
