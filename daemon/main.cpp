#include "app/Daemon.hpp"

#include <iostream>

POCO_SERVER_MAIN(skinpulse::app::Daemon)
