// Runs one CppUnit suite by name (`unit_tests FooTest`), or every registered suite.

#include <cppunit/BriefTestProgressListener.h>
#include <cppunit/CompilerOutputter.h>
#include <cppunit/Test.h>
#include <cppunit/TestResult.h>
#include <cppunit/TestResultCollector.h>
#include <cppunit/extensions/TestFactoryRegistry.h>

#include <iostream>

int main(int argc, char** argv) {
  CppUnit::Test* all = CppUnit::TestFactoryRegistry::getRegistry().makeTest();
  CppUnit::Test* selected = all;
  if (argc > 1) {
    try {
      selected = all->findTest(argv[1]);
    } catch (const std::invalid_argument&) {
      std::cerr << "no test suite named " << argv[1] << "\n";
      delete all;
      return 2;
    }
  }
  CppUnit::TestResult controller;
  CppUnit::TestResultCollector collector;
  controller.addListener(&collector);
  CppUnit::BriefTestProgressListener progress;
  controller.addListener(&progress);
  selected->run(&controller);
  CppUnit::CompilerOutputter outputter(&collector, std::cerr);
  outputter.write();
  const bool ok = collector.wasSuccessful();
  delete all;
  return ok ? 0 : 1;
}
