/** The origin the test build is made for; browser tests listen on its port so absolute links work. */
export const TEST_PORT = 8899;
export const TEST_ORIGIN = `http://localhost:${TEST_PORT}`;
