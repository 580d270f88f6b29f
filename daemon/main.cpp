#include <iostream>

#include "app/Daemon.hpp"

POCO_SERVER_MAIN(skinpulse::Daemon)
