"""A lit test format that runs only the listed tests of a suite (ShTest)."""

import lit.formats


class Subset(lit.formats.ShTest):
    """ShTest restricted to `subset`: paths relative to the suite's source root."""

    def __init__(self, subset, execute_external=False):
        super().__init__(execute_external)
        self.subset = frozenset(subset)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        for test in super().getTestsInDirectory(
            testSuite, path_in_suite, litConfig, localConfig
        ):
            if "/".join(test.path_in_suite) in self.subset:
                yield test
