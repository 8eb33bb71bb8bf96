// How many CPUs this process may use: its affinity mask (taskset, Slurm's
// cpusets), capped by a cgroup CPU quota (docker --cpus, Kubernetes limits)
// rounded up. The default of every --threads, so that a tool never runs more
// threads than its allocation.
#pragma once

namespace warpdp {

unsigned usable_cpus();

// The quota of a cgroup v2 "cpu.max" text ("max 100000", "150000 100000"),
// in whole CPUs rounded up; 0 when there is none or the text is not one.
unsigned cpus_of_cgroup_quota(const char* cpu_max_text);

}  // namespace warpdp
