// Package hugepage asks the kernel to back a large slice with huge pages
// (Linux's transparent huge pages, madvise(MADV_HUGEPAGE)), where the
// machine leaves them to the program's request ("madvise" in
// /sys/kernel/mm/transparent_hugepage/enabled).
//
// Why: a simulation's state at N = 2^25–2^26 nodes is bitsets of 4–8 MiB
// and permutations of 128–256 MiB read at random, once a shuffle each. On
// 4 KiB pages every read misses the TLB, and under a virtual machine's
// nested paging a miss costs a walk of both page tables: one round at N =
// 2^25 took 70 s of CPU (bitset reads 93 % of it) where it takes 1.1 s with
// huge pages, on the 2-core VM of 2026-12-07 whose setting is "madvise".
// The advice changes no value: only how the memory is mapped.
package hugepage
