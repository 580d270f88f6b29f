#include "telemetry/ProcessMetrics.hpp"

#include <charconv>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace skinpulse::telemetry {
namespace {

std::optional<std::string> slurp(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

double countDescriptors() {
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return 0;
  double count = 0;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  ::closedir(dir);
  return count - 1;  // the descriptor opendir() itself holds
}

// "Max open files  1024  4096  files" of /proc/self/limits: the soft limit.
double maxDescriptors() {
  const auto limits = slurp("/proc/self/limits");
  if (!limits) return 0;
  const auto at = limits->find("Max open files");
  if (at == std::string::npos) return 0;
  std::istringstream line(limits->substr(at + 14));
  std::string soft;
  line >> soft;
  double value = 0;
  std::from_chars(soft.data(), soft.data() + soft.size(), value);
  return value;
}

}  // namespace

std::optional<StatFields> parseStat(std::string_view stat) {
  // The command name is in parentheses and may hold spaces or ')': the fields start
  // after the LAST ')'.
  const auto close = stat.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::istringstream fields{std::string(stat.substr(close + 1))};
  // Field 3 (state) is the first after the name; we need 14, 15, 20 and 22.
  std::string field;
  StatFields out;
  for (int index = 3; index <= 22; ++index) {
    if (!(fields >> field)) return std::nullopt;
    double value = 0;
    if (index != 3) {
      const auto result = std::from_chars(field.data(), field.data() + field.size(), value);
      if (result.ec != std::errc()) return std::nullopt;
    }
    if (index == 14) out.utime_ticks = value;
    if (index == 15) out.stime_ticks = value;
    if (index == 20) out.threads = value;
    if (index == 22) out.start_ticks = value;
  }
  return out;
}

std::optional<double> parseBootTime(std::string_view proc_stat) {
  const auto at = proc_stat.find("\nbtime ");
  if (at == std::string_view::npos) return std::nullopt;
  const auto begin = at + 7;
  const auto end = proc_stat.find('\n', begin);
  const auto text = proc_stat.substr(begin, end == std::string_view::npos ? end : end - begin);
  double value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc()) return std::nullopt;
  return value;
}

std::optional<ProcessSample> readProcess() {
  const auto stat = slurp("/proc/self/stat");
  const auto statm = slurp("/proc/self/statm");
  const auto system = slurp("/proc/stat");
  if (!stat || !statm || !system) return std::nullopt;
  const auto fields = parseStat(*stat);
  const auto boot = parseBootTime(*system);
  if (!fields || !boot) return std::nullopt;
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(::sysconf(_SC_PAGESIZE));

  ProcessSample sample;
  std::istringstream pages(*statm);
  double size = 0;
  double resident = 0;
  pages >> size >> resident;
  sample.resident_bytes = resident * page;
  sample.threads = fields->threads;
  sample.open_fds = countDescriptors();
  sample.max_fds = maxDescriptors();
  sample.start_time_seconds = *boot + fields->start_ticks / ticks;
  sample.cpu_seconds = (fields->utime_ticks + fields->stime_ticks) / ticks;
  return sample;
}

void collectProcess(std::vector<CollectedFamily>& out) {
  const auto sample = readProcess();
  if (!sample) return;
  const auto add = [&out](const char* name, const char* help, Type type, double value) {
    out.push_back(CollectedFamily{name, help, type, {}, {{{}, value}}});
  };
  add("skinpulse_process_resident_memory_bytes", "Resident memory of the daemon.", Type::kGauge,
      sample->resident_bytes);
  add("skinpulse_process_threads", "Threads of the daemon.", Type::kGauge, sample->threads);
  add("skinpulse_process_open_fds", "Open file descriptors (sockets included).", Type::kGauge,
      sample->open_fds);
  add("skinpulse_process_max_fds", "The soft limit of open file descriptors.", Type::kGauge,
      sample->max_fds);
  add("skinpulse_process_start_time_seconds", "Unix time the daemon started.", Type::kGauge,
      sample->start_time_seconds);
  add("skinpulse_process_cpu_seconds_total", "CPU time of the daemon, user plus system.",
      Type::kCounter, sample->cpu_seconds);
}

}  // namespace skinpulse::telemetry
