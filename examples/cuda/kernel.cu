// kernel.imp in CUDA, emitted by arraysem from IMP (one thread per iteration of a
// top-level kernel; nested kernels are loops of the thread). Inputs are
// NAME=VALUE arguments, as `arraysem run --arg` takes them; the results print
// as `arraysem run` prints them; a stuck state exits with status 1.
// ==== arraysem prelude: begin (fixed text; gpu-sim checks it is unchanged) ====
// Three ways to build this file:
//   nvcc -std=c++17 -O2 -o prog prog.cu                      (a GPU)
//   clang-14 -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80
//            -DARRAYSEM_NO_CUDA_SDK -S -o prog.ptx prog.cu   (device code to PTX, no SDK)
//   clang++-14 -x c++ -std=c++17 -DARRAYSEM_HOST -fsanitize=address,undefined
//            -pthread -o prog prog.cu                         (every thread on the CPU)
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(ARRAYSEM_HOST)
// CUDA on the CPU: a launch runs its blocks one after another and, within
// a block, its threads one after another, unless the kernel waits at
// __syncthreads, when the block's threads are fibres (on x86-64 Linux; OS
// threads elsewhere) meeting at a barrier. Device memory is host memory,
// so the sanitizers see every access.
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#define __global__ static
#define __device__
#define __host__
// A block's shared memory: one array for all its threads (blocks run one
// after another).
#define __shared__ static
struct dim3 {
  unsigned x, y, z;
};
static thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
static const cudaError_t cudaSuccess = 0;
static cudaError_t cudaMalloc(void **p, size_t n) {
  *p = malloc(n);
  return *p ? cudaSuccess : 2;
}
static cudaError_t cudaFree(void *p) {
  free(p);
  return cudaSuccess;
}
static cudaError_t cudaMemset(void *p, int v, size_t n) {
  memset(p, v, n);
  return cudaSuccess;
}
static cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) {
  if (n > 0) memcpy(d, s, n);
  return cudaSuccess;
}
static cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
static cudaError_t cudaGetLastError() { return cudaSuccess; }
static const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "out of memory"; }
// The device heap's limit is recorded (8 MiB, CUDA's default, until it is
// raised); a thread's blocks come from malloc, which it does not bound.
enum cudaLimit { cudaLimitMallocHeapSize = 2 };
static size_t arraysem_host_heap_limit = (size_t)8 << 20;
static cudaError_t cudaDeviceSetLimit(cudaLimit, size_t v) {
  arraysem_host_heap_limit = v;
  return cudaSuccess;
}
static cudaError_t cudaDeviceGetLimit(size_t *v, cudaLimit) {
  *v = arraysem_host_heap_limit;
  return cudaSuccess;
}
static cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  *free_bytes = *total_bytes = (size_t)1 << 40;
  return cudaSuccess;
}
static std::mutex arraysem_atomic_mutex;
static unsigned long long arraysem_cas(unsigned long long *a, unsigned long long cmp, unsigned long long v) {
  std::lock_guard<std::mutex> g(arraysem_atomic_mutex);
  unsigned long long old = *a;
  if (old == cmp) *a = v;
  return old;
}
// A block whose threads wait at __syncthreads runs them as fibres on the
// launching thread, where a switch saves and restores the registers a
// call preserves (no system call), told to AddressSanitizer so that it
// follows the stacks: each fibre runs until it waits at a barrier or
// returns, in thread order; when every fibre that has not returned waits,
// the round ends and the next resumes them past the barrier (a thread
// that has returned no longer counts). Elsewhere the threads are OS
// threads meeting at a barrier.
#if defined(__x86_64__) && defined(__linux__)
#define ARRAYSEM_FIBRES 1
#include <sys/mman.h>
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARRAYSEM_ASAN_FIBRES 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define ARRAYSEM_ASAN_FIBRES 1
#endif
#if defined(ARRAYSEM_ASAN_FIBRES)
extern "C" void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
#endif
// arraysem_switch(from, to) saves the callee-saved registers on the
// current stack, its stack pointer in *from, and resumes the stack to.
extern "C" void arraysem_switch(void **from, void *to);
asm(R"(
  .text
  .p2align 4
  .type arraysem_switch, @function
arraysem_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size arraysem_switch, .-arraysem_switch
)");
struct arraysem_fibre {
  void *sp;
  char *stack;  // its lowest usable byte (a guard page lies below)
  void *fake;   // AddressSanitizer's fake stack, while switched away
  bool done;
};
static const size_t arraysem_fibre_stack = (size_t)256 << 10;
static arraysem_fibre *arraysem_fibres;
static unsigned arraysem_nfibres;
static arraysem_fibre *arraysem_current_fibre;
static void *arraysem_launcher_sp, *arraysem_launcher_fake;
static const void *arraysem_launcher_bottom;
static size_t arraysem_launcher_size;
static void (*arraysem_fibre_body)(void *);
static void *arraysem_fibre_arg;
static void arraysem_to_fibre(arraysem_fibre *f) {
  arraysem_current_fibre = f;
#if defined(ARRAYSEM_ASAN_FIBRES)
  __sanitizer_start_switch_fiber(&arraysem_launcher_fake, f->stack, arraysem_fibre_stack);
#endif
  arraysem_switch(&arraysem_launcher_sp, f->sp);
#if defined(ARRAYSEM_ASAN_FIBRES)
  __sanitizer_finish_switch_fiber(arraysem_launcher_fake, nullptr, nullptr);
#endif
  arraysem_current_fibre = nullptr;
}
// to_launcher leaves the fibre f (for good when it is done).
static void arraysem_to_launcher(arraysem_fibre *f) {
#if defined(ARRAYSEM_ASAN_FIBRES)
  __sanitizer_start_switch_fiber(f->done ? nullptr : &f->fake, arraysem_launcher_bottom, arraysem_launcher_size);
#endif
  arraysem_switch(&f->sp, arraysem_launcher_sp);
#if defined(ARRAYSEM_ASAN_FIBRES)
  __sanitizer_finish_switch_fiber(f->fake, nullptr, nullptr);
#endif
}
static void arraysem_fibre_main() {
  arraysem_fibre *f = arraysem_current_fibre;
#if defined(ARRAYSEM_ASAN_FIBRES)
  __sanitizer_finish_switch_fiber(nullptr, &arraysem_launcher_bottom, &arraysem_launcher_size);
#endif
  arraysem_fibre_body(arraysem_fibre_arg);
  f->done = true;
  arraysem_to_launcher(f);
  abort();  // a fibre that is done is never resumed
}
// start_fibre readies fibre i (its stack made the first time) to run
// arraysem_fibre_main: arraysem_switch's frame, whose return enters it as
// if called.
static void arraysem_start_fibre(unsigned i) {
  if (i >= arraysem_nfibres) {
    arraysem_fibres = (arraysem_fibre *)realloc(arraysem_fibres, (size_t)(i + 1) * sizeof(arraysem_fibre));
    for (; arraysem_nfibres <= i; arraysem_nfibres++) {
      size_t page = 4096;
      char *m = (char *)mmap(nullptr, arraysem_fibre_stack + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) {
        fprintf(stderr, "arraysem: no memory for a thread's stack\n");
        _Exit(1);
      }
      mprotect(m, page, PROT_NONE);
      arraysem_fibres[arraysem_nfibres].stack = m + page;
    }
  }
  arraysem_fibre *f = &arraysem_fibres[i];
  void **top = (void **)(f->stack + arraysem_fibre_stack);
  top[-1] = nullptr;                           // the entry's return address
  top[-2] = (void *)&arraysem_fibre_main;      // where arraysem_switch returns
  for (int r = 3; r <= 8; r++) top[-r] = nullptr;  // rbp, rbx, r12-r15
  f->sp = top - 8;
  f->fake = nullptr;
  f->done = false;
}
#endif
// A reusable barrier for one block's OS threads.
struct arraysem_barrier {
  std::mutex m;
  std::condition_variable cv;
  unsigned n = 0, waiting = 0, phase = 0;
};
static thread_local arraysem_barrier *arraysem_current_barrier;
static void __syncthreads() {
#if defined(ARRAYSEM_FIBRES)
  if (arraysem_current_fibre != nullptr) {
    arraysem_to_launcher(arraysem_current_fibre);
    return;
  }
#endif
  arraysem_barrier *b = arraysem_current_barrier;
  if (b == nullptr) return;
  std::unique_lock<std::mutex> l(b->m);
  unsigned phase = b->phase;
  if (++b->waiting == b->n) {
    b->waiting = 0;
    b->phase++;
    b->cv.notify_all();
    return;
  }
  b->cv.wait(l, [&] { return b->phase != phase; });
}
// Where there are no fibres (not x86-64 Linux): the OS threads of the
// blocks of kernels that wait at __syncthreads, kept from block to block
// and from launch to launch: creating a thread
// costs more than most kernels' work (under the sanitizers, most of a
// run). Pool thread t runs thread t of every block (a round) of more than
// t threads; the host waits for a round's threads before the next.
struct arraysem_pool {
  std::mutex m;
  std::condition_variable go, done;
  unsigned started = 0;
  unsigned long long round = 0;
  unsigned n = 0, left = 0; // the round's threads, and those not returned yet
  void (*run)(void *) = nullptr;
  void *f = nullptr;
  dim3 grid{}, block{}, idx{};
  arraysem_barrier *barrier = nullptr;
};
static arraysem_pool *arraysem_the_pool;
static void arraysem_pool_thread(arraysem_pool *p, unsigned t) {
  unsigned long long ran = 0;
  std::unique_lock<std::mutex> l(p->m);
  for (;;) {
    p->go.wait(l, [&] { return p->round != ran && t < p->n; });
    ran = p->round;
    void (*run)(void *) = p->run;
    void *f = p->f;
    arraysem_barrier *b = p->barrier;
    gridDim = p->grid, blockDim = p->block, blockIdx = p->idx, threadIdx = {t, 0, 0};
    l.unlock();
    arraysem_current_barrier = b;
    run(f);
    {
      // A thread that has returned no longer counts at the barrier.
      std::lock_guard<std::mutex> g(b->m);
      if (--b->n > 0 && b->waiting == b->n) {
        b->waiting = 0;
        b->phase++;
        b->cv.notify_all();
      }
    }
    l.lock();
    if (--p->left == 0) p->done.notify_one();
  }
}
// A launch, the kernel's call type-erased (run(f) makes it), so that each
// launch site instantiates one small template and no thread machinery.
static void arraysem_launch_blocks(unsigned grid, unsigned block, bool sync, void (*run)(void *), void *f) {
  for (unsigned g = 0; g < grid; g++) {
    if (!sync) {
      for (unsigned t = 0; t < block; t++) {
        gridDim = {grid, 1, 1}, blockDim = {block, 1, 1}, blockIdx = {g, 0, 0}, threadIdx = {t, 0, 0};
        run(f);
      }
      continue;
    }
#if defined(ARRAYSEM_FIBRES)
    arraysem_fibre_body = run;
    arraysem_fibre_arg = f;
    for (unsigned t = 0; t < block; t++) arraysem_start_fibre(t);
    for (unsigned live = block; live > 0;) {
      for (unsigned t = 0; t < block; t++) {
        if (arraysem_fibres[t].done) continue;
        gridDim = {grid, 1, 1}, blockDim = {block, 1, 1}, blockIdx = {g, 0, 0}, threadIdx = {t, 0, 0};
        arraysem_to_fibre(&arraysem_fibres[t]);
        if (arraysem_fibres[t].done) live--;
      }
    }
    continue;
#endif
    if (arraysem_the_pool == nullptr) arraysem_the_pool = new arraysem_pool;
    arraysem_pool *p = arraysem_the_pool;
    arraysem_barrier b;
    b.n = block;
    std::unique_lock<std::mutex> l(p->m);
    for (; p->started < block; p->started++) std::thread(arraysem_pool_thread, p, p->started).detach();
    p->run = run, p->f = f, p->barrier = &b;
    p->grid = {grid, 1, 1}, p->block = {block, 1, 1}, p->idx = {g, 0, 0};
    p->n = p->left = block;
    p->round++;
    p->go.notify_all();
    p->done.wait(l, [&] { return p->left == 0; });
  }
}
template <class F>
static void arraysem_launch(unsigned grid, unsigned block, bool sync, F f) {
  arraysem_launch_blocks(grid, block, sync, [](void *f) { (*static_cast<F *>(f))(); }, &f);
}
#define ARRAYSEM_LAUNCH(k, grid, block, ...) arraysem_launch((grid), (block), false, [&] { k(__VA_ARGS__); })
#define ARRAYSEM_LAUNCH_SYNC(k, grid, block, ...) arraysem_launch((grid), (block), true, [&] { k(__VA_ARGS__); })
static int64_t *arraysem_device_malloc(size_t n) { return (int64_t *)malloc(n); }
static void arraysem_device_free(int64_t *p) { free(p); }

#elif defined(ARRAYSEM_NO_CUDA_SDK)
// Without the CUDA SDK: what its headers would declare, for clang's
// device-only compilation to PTX (-nocudainc -nocudalib).
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#include "__clang_cuda_builtin_vars.h"
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
enum cudaLimit { cudaLimitMallocHeapSize = 2 };
static const cudaError_t cudaSuccess = 0;
extern "C" {
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind k);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t s = 0);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, void *s = 0);
__device__ void *malloc(size_t n);
__device__ void free(void *p);
}
__device__ static unsigned long long arraysem_cas(unsigned long long *a, unsigned long long cmp, unsigned long long v) {
  return (unsigned long long)__nvvm_atom_cas_gen_ll((long long *)a, (long long)cmp, (long long)v);
}
#define ARRAYSEM_LAUNCH(k, grid, block, ...) k<<<(grid), (block)>>>(__VA_ARGS__)
#define ARRAYSEM_LAUNCH_SYNC(k, grid, block, ...) k<<<(grid), (block)>>>(__VA_ARGS__)
__device__ static int64_t *arraysem_device_malloc(size_t n) { return (int64_t *)malloc(n); }
__device__ static void arraysem_device_free(int64_t *p) { free(p); }

#else
// The CUDA SDK, for nvcc.
#include <cuda_runtime.h>
__device__ static unsigned long long arraysem_cas(unsigned long long *a, unsigned long long cmp, unsigned long long v) {
  return atomicCAS(a, cmp, v);
}
#define ARRAYSEM_LAUNCH(k, grid, block, ...) k<<<(grid), (block)>>>(__VA_ARGS__)
#define ARRAYSEM_LAUNCH_SYNC(k, grid, block, ...) k<<<(grid), (block)>>>(__VA_ARGS__)
__device__ static int64_t *arraysem_device_malloc(size_t n) { return (int64_t *)malloc(n); }
__device__ static void arraysem_device_free(int64_t *p) { free(p); }
#endif

// IMP's values: an int is an int64_t; a memory block is a pointer to its
// integers and their count (p == nullptr is ⊥, a block variable before
// alloc or assignment gives it a block).
struct arraysem_block {
  int64_t *p;
  int64_t n;
};

// IMP's arithmetic is int64 wrapping; C++ leaves signed overflow undefined,
// so it is done on uint64_t and converted back (modular since C++20, and
// in every compiler before). Division truncates, as Go's does; x / 0 and
// x % 0 are checked before these run, and MinInt64 / -1 wraps to MinInt64
// (remainder 0) instead of trapping.
__host__ __device__ static inline int64_t i64_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
__host__ __device__ static inline int64_t i64_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
__host__ __device__ static inline int64_t i64_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
__host__ __device__ static inline int64_t i64_neg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }
__host__ __device__ static inline int64_t i64_div(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return i64_neg(a);
  return a / b;
}
__host__ __device__ static inline int64_t i64_mod(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  return a % b;
}
// The checked operators (+! -! *! /!, semantics.ErrOverflow): whether the
// exact result of a op b is not an int64. The operation itself then runs
// as the wrapping one above, after the program has stopped on these.
__host__ __device__ static inline bool i64_add_overflows(int64_t a, int64_t b) {
  int64_t r = i64_add(a, b);
  return ((a ^ r) & (b ^ r)) < 0;
}
__host__ __device__ static inline bool i64_sub_overflows(int64_t a, int64_t b) {
  int64_t r = i64_sub(a, b);
  return ((a ^ b) & (a ^ r)) < 0;
}
__host__ __device__ static inline bool i64_mul_overflows(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return false;
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return true;
  return i64_mul(a, b) / b != a;
}
__host__ __device__ static inline bool i64_div_overflows(int64_t a, int64_t b) { return a == INT64_MIN && b == -1; }

// IMP's floats (an extension) are IEEE doubles. A heap word is an int64_t
// either way: a float is stored as its bits, every NaN as the one
// canonical NaN (semantics.FloatBits), and read back by the same bits.
// On the device the arithmetic uses the round-to-nearest intrinsics, which
// the compiler never contracts into a fused multiply-add (nvcc and clang
// contract a * b + c by default in device code), so each operation rounds
// once, as Go's float64 does. sqrt is correctly rounded everywhere; exp,
// log, sin and cos are the platform's (CUDA's math library on the device,
// <cmath> on the host), which may differ from Go's math package in the
// last bit on some arguments (docs/cuda.md, "Floats").
#if defined(__CUDA_ARCH__) && defined(ARRAYSEM_NO_CUDA_SDK)
extern "C" __device__ double __nv_exp(double);
extern "C" __device__ double __nv_log(double);
extern "C" __device__ double __nv_sin(double);
extern "C" __device__ double __nv_cos(double);
#define ARRAYSEM_DADD(a, b) __nvvm_add_rn_d(a, b)
#define ARRAYSEM_DMUL(a, b) __nvvm_mul_rn_d(a, b)
#define ARRAYSEM_DDIV(a, b) __nvvm_div_rn_d(a, b)
#define ARRAYSEM_DSQRT(a) __nvvm_sqrt_rn_d(a)
#define ARRAYSEM_DEXP(a) __nv_exp(a)
#define ARRAYSEM_DLOG(a) __nv_log(a)
#define ARRAYSEM_DSIN(a) __nv_sin(a)
#define ARRAYSEM_DCOS(a) __nv_cos(a)
#define ARRAYSEM_D2LL(a) __nvvm_bitcast_d2ll(a)
#define ARRAYSEM_LL2D(a) __nvvm_bitcast_ll2d(a)
#elif defined(__CUDA_ARCH__)
#define ARRAYSEM_DADD(a, b) __dadd_rn(a, b)
#define ARRAYSEM_DMUL(a, b) __dmul_rn(a, b)
#define ARRAYSEM_DDIV(a, b) __ddiv_rn(a, b)
#define ARRAYSEM_DSQRT(a) __dsqrt_rn(a)
#define ARRAYSEM_DEXP(a) exp(a)
#define ARRAYSEM_DLOG(a) log(a)
#define ARRAYSEM_DSIN(a) sin(a)
#define ARRAYSEM_DCOS(a) cos(a)
#define ARRAYSEM_D2LL(a) __double_as_longlong(a)
#define ARRAYSEM_LL2D(a) __longlong_as_double(a)
#endif
__host__ __device__ static inline double f64_add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DADD(a, b);
#else
  return a + b;
#endif
}
__host__ __device__ static inline double f64_sub(double a, double b) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DADD(a, -b);
#else
  return a - b;
#endif
}
__host__ __device__ static inline double f64_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DMUL(a, b);
#else
  return a * b;
#endif
}
__host__ __device__ static inline double f64_div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DDIV(a, b);
#else
  return a / b;
#endif
}
__host__ __device__ static inline double f64_sqrt(double a) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DSQRT(a);
#else
  return std::sqrt(a);
#endif
}
__host__ __device__ static inline double f64_exp(double a) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DEXP(a);
#else
  return std::exp(a);
#endif
}
__host__ __device__ static inline double f64_log(double a) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DLOG(a);
#else
  return std::log(a);
#endif
}
__host__ __device__ static inline double f64_sin(double a) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DSIN(a);
#else
  return std::sin(a);
#endif
}
__host__ __device__ static inline double f64_cos(double a) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_DCOS(a);
#else
  return std::cos(a);
#endif
}
// The word that stores a float (NaN canonical), and the float of a word.
__host__ __device__ static inline int64_t arraysem_f64_bits(double x) {
  if (x != x) return (int64_t)0x7FF8000000000000LL;
#if defined(__CUDA_ARCH__)
  return (int64_t)ARRAYSEM_D2LL(x);
#else
  int64_t k;
  memcpy(&k, &x, sizeof k);
  return k;
#endif
}
__host__ __device__ static inline double arraysem_f64_from_bits(int64_t k) {
#if defined(__CUDA_ARCH__)
  return ARRAYSEM_LL2D((long long)k);
#else
  double x;
  memcpy(&x, &k, sizeof x);
  return x;
#endif
}
// int(x) is defined when x truncates into [-2^63, 2^63) (both bounds are
// exact doubles; NaN fails both comparisons); the conversion itself is
// then a C++ cast, which truncates.
__host__ __device__ static inline bool arraysem_f64_int_ok(double x) {
  return x >= -9223372036854775808.0 && x < 9223372036854775808.0;
}
__host__ __device__ static inline bool arraysem_f64_isnan(double x) { return x != x; }

// A stuck state found by a thread: the first thread to get stuck records
// its site (an index into arraysem_sites, plus one) and two numbers for
// the message; the host reads the record after every launch.
struct arraysem_error {
  unsigned long long site;
  int64_t a, b;
};
__device__ static void arraysem_trap(arraysem_error *e, int site, int64_t a, int64_t b) {
  if (arraysem_cas(&e->site, 0, (unsigned long long)site + 1) == 0) e->a = a, e->b = b;
}

// The interpreter's limit on a block (semantics.MaxHeap integers).
static const int64_t arraysem_max_block = (int64_t)1 << 28;
__host__ __device__ static inline size_t arraysem_alloc_bytes(int64_t n) { return (size_t)(n > 0 ? n : 1) * sizeof(int64_t); }
__host__ __device__ static inline size_t arraysem_copy_bytes(int64_t n) { return (size_t)n * sizeof(int64_t); }

// A block allocated by a thread: zeroed, as E-IMP-ALLOC's blocks are.
__device__ static int64_t *arraysem_device_alloc(int64_t n) {
  int64_t *p = arraysem_device_malloc(arraysem_alloc_bytes(n));
  if (p != nullptr)
    for (int64_t i = 0; i < n; i++) p[i] = 0;
  return p;
}

// A block allocated by a thread inside a for loop, which may outlive the
// iteration: the blocks of a frame are chained (two hidden words before
// each block, the first the previous block) and freed together when the
// frame ends.
__device__ static int64_t *arraysem_device_alloc_chain(int64_t n, int64_t *prev) {
  int64_t *raw = arraysem_device_malloc(arraysem_alloc_bytes(n) + 2 * sizeof(int64_t));
  if (raw == nullptr) return nullptr;
  raw[0] = (int64_t)(intptr_t)prev;
  int64_t *p = raw + 2;
  for (int64_t i = 0; i < n; i++) p[i] = 0;
  return p;
}
__device__ static void arraysem_device_free_chain(int64_t *p) {
  while (p != nullptr) {
    int64_t *raw = p - 2, *next = (int64_t *)(intptr_t)raw[0];
    arraysem_device_free(raw);
    p = next;
  }
}

// Parallel reduce and scan: levels of a tree over n threads (the least L
// with 2^L >= n), and a / b rounded up (a >= 0, b > 0).
__host__ __device__ static inline int64_t arraysem_tree_levels(int64_t n) {
  int64_t l = 0;
  for (int64_t w = 1; w < n; w *= 2) l++;
  return l;
}
__host__ __device__ static inline int64_t arraysem_ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// ---- host runtime: messages, inputs, results ----
static const char *const *arraysem_site_text;
static int arraysem_threads_per_block = 256;
static int64_t arraysem_heap_total;

// A stuck state: the message of the site, exit status 1. _Exit skips the
// leak check of the sanitizers, which has nothing to say about a program
// stopped half-way.
static void arraysem_format_float(char *out, double x);
static void arraysem_fail(int site, int64_t a, int64_t b) {
  fflush(stdout);
  // A site's text is a format of its own: %lld is the next number, %f64
  // the next number as a float's bits (printed as values print), %% a %.
  int64_t args[2] = {a, b};
  int k = 0;
  for (const char *f = arraysem_site_text[site]; *f != 0; f++) {
    if (f[0] == '%' && f[1] == '%') {
      fputc('%', stderr);
      f++;
    } else if (strncmp(f, "%lld", 4) == 0 || strncmp(f, "%f64", 4) == 0) {
      int64_t v = args[k < 2 ? k : 1];
      k++;
      if (f[1] == 'l') {
        fprintf(stderr, "%lld", (long long)v);
      } else {
        char buf[64];
        arraysem_format_float(buf, arraysem_f64_from_bits(v));
        fputs(buf, stderr);
      }
      f += 3;
    } else {
      fputc(*f, stderr);
    }
  }
  fputc('\n', stderr);
  fflush(stderr);
  _Exit(1);
}
static void arraysem_cuda(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return;
  fflush(stdout);
  fprintf(stderr, "arraysem: %s: %s\n", what, cudaGetErrorString(e));
  _Exit(1);
}
// After a launch: the launch itself, the kernel's run, and its stuck states.
static void arraysem_sync(arraysem_error *err, const char *what) {
  arraysem_cuda(cudaGetLastError(), what);
  arraysem_cuda(cudaDeviceSynchronize(), what);
  arraysem_error h;
  arraysem_cuda(cudaMemcpy(&h, err, sizeof h, cudaMemcpyDeviceToHost), what);
  if (h.site != 0) arraysem_fail((int)(h.site - 1), h.a, h.b);
}
// The grid of a kernel that runs a block per iteration (cuda/coop.go).
static unsigned arraysem_blocks(int64_t n) {
  if (n > 2147483647) {
    fprintf(stderr, "arraysem: a kernel of %lld iterations, a block each, needs more than 2^31-1 blocks\n", (long long)n);
    _Exit(1);
  }
  return (unsigned)n;
}
static unsigned arraysem_grid(int64_t threads) {
  int64_t g = (threads + arraysem_threads_per_block - 1) / arraysem_threads_per_block;
  if (g > 2147483647) {
    fprintf(stderr, "arraysem: a kernel of %lld iterations needs more than 2^31-1 blocks\n", (long long)threads);
    _Exit(1);
  }
  return (unsigned)g;
}
// The device heap, from which threads allocate (in-kernel malloc): 8 MiB
// by default, and CUDA lets a program raise it only before it launches a
// kernel that allocates, so main raises it once, before the first launch,
// to twice the most that the threads of one launch can hold at once (the
// allocator's bookkeeping and fragmentation, which CUDA does not specify,
// get as much again). A kernel whose sizes only its threads know counts as
// arraysem_heap_default, the interpreter's whole heap (2^28 integers). The
// limit is never lowered and takes at most half the free device memory,
// leaving cudaMalloc room; a thread whose malloc still fails is stuck
// ("the device heap has no room"), never wrong.
static const int64_t arraysem_heap_default = arraysem_max_block * (int64_t)sizeof(int64_t);
// The bytes a thread holds after one more block of n integers (its
// arraysem_alloc_bytes, at most arraysem_max_block integers, in 16-byte units).
static int64_t arraysem_heap_thread(int64_t acc, int64_t n) {
  int64_t bytes = ((int64_t)arraysem_alloc_bytes(n < arraysem_max_block ? n : arraysem_max_block) + 15) / 16 * 16;
  return acc > INT64_MAX - bytes ? INT64_MAX : acc + bytes;
}
// The larger of acc and what a launch of threads threads, each holding
// per_thread bytes, holds at once.
static int64_t arraysem_heap_kernel(int64_t acc, int64_t threads, int64_t per_thread) {
  if (threads < 0) threads = 0;
  int64_t all = per_thread != 0 && threads > INT64_MAX / per_thread ? INT64_MAX : threads * per_thread;
  return all > acc ? all : acc;
}
static void arraysem_heap_limit(int64_t need) {
  size_t want = need > INT64_MAX / 2 ? (size_t)INT64_MAX : (size_t)need * 2;
  size_t limit = 0, free_bytes = 0, total_bytes = 0;
  arraysem_cuda(cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize), "cudaDeviceGetLimit");
  arraysem_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (want > free_bytes / 2) want = free_bytes / 2;
  if (want > limit) arraysem_cuda(cudaDeviceSetLimit(cudaLimitMallocHeapSize, want), "cudaDeviceSetLimit");
}

// Parallel reduce and scan (cuda/parfold.go): a block folds tiles of
// block × items elements, items (at most 8) each thread, a tile filling at
// most the 1024 words of a __shared__ array. A fold of n elements runs
// blocks of the threads a block has (ARRAYSEM_BLOCK, at most 1024), or of
// fewer, a multiple of 32 (a warp), when its elements need fewer; and at
// most block × items blocks (one block folds their partials in one
// round), each folding a range of arraysem_fold_tiles tiles, at least 4
// (so a thread folds 4 × items elements) when there are that many.
static int64_t arraysem_fold_items() {
  int64_t b = arraysem_threads_per_block;
  if (b > 1024) {
    fprintf(stderr, "arraysem: a reduce or scan runs blocks of at most 1024 threads, not %lld\n", (long long)b);
    _Exit(1);
  }
  return 1024 / b < 8 ? 1024 / b : 8;
}
static int64_t arraysem_fold_block(int64_t n) {
  int64_t b = arraysem_threads_per_block;
  int64_t need = (arraysem_ceil_div(n, arraysem_fold_items()) + 31) / 32 * 32;
  return need < b ? need : b;
}
static int64_t arraysem_fold_tiles(int64_t n, int64_t block) {
  int64_t tile = block * arraysem_fold_items();
  int64_t tiles = arraysem_ceil_div(n, tile), per = arraysem_ceil_div(tiles, tile);
  if (per < 4) per = tiles < 4 ? tiles : 4;
  return per;
}
// Blocks allocated on the host inside a for loop: kept until the end.
static int64_t **arraysem_kept;
static int64_t arraysem_nkept, arraysem_kept_cap;
static void arraysem_keep(int64_t *p) {
  if (arraysem_nkept == arraysem_kept_cap) {
    arraysem_kept_cap = arraysem_kept_cap * 2 + 16;
    arraysem_kept = (int64_t **)realloc(arraysem_kept, (size_t)arraysem_kept_cap * sizeof(int64_t *));
  }
  arraysem_kept[arraysem_nkept++] = p;
}

// A host-level alloc: E-IMP-ALLOC's checks against the interpreter's heap.
static void arraysem_reserve(int64_t n, int neg_site, int limit_site) {
  if (n < 0) arraysem_fail(neg_site, n, 0);
  if (n > arraysem_max_block - arraysem_heap_total) arraysem_fail(limit_site, n, arraysem_max_block);
  arraysem_heap_total += n;
}

// Inputs, given as NAME=VALUE arguments in the syntax of `arraysem run
// --arg` (defaults compiled in come first, the command line overrides;
// `--arg NAME=VALUE` is the same), NAME=@FILE (the value read from a data
// file), or --data FILE (a whole input set from a data file: the values go
// to the inputs in order, or to those that are not sizes of array inputs,
// whose sizes are read off the arrays; the defaults are then not used).
// Data files are those of `arraysem run --data` (package datafile): this
// project's literals and Futhark's (type suffixes, true and false,
// f64.nan, empty([0]i64), -- comments), and Futhark's binary format.
// Each declaration is "NAME" (an int) or "NAME[D1][D2]..." (an array
// whose sizes D are int inputs, read off the array when not given), with
// ":float" after it for a float or an array of floats, and binding follows
// the interpreter's: ranks must match, sizes must agree, element types
// must match (no conversions), and an empty literal takes its inner sizes
// from the other inputs and its element type from the declaration. A
// float is held as its bits (arraysem_f64_bits), as a heap word holds it.
struct arraysem_value {
  char name[64];
  int ndims;                // declared rank (0: an int)
  char dims[16][64];        // the sizes' names
  int rank;                 // the literal's rank
  int64_t shape[16];
  int64_t *data;
  int64_t len;
  bool given;
  bool is_float;            // declared float
  int elem;                 // the literal's: -1 none (empty), 0 int, 1 float
  int prim;                 // the type a data file gives it (arraysem_prims), -1 none
};
static arraysem_value arraysem_values[64];
static int arraysem_nvalues;
static void arraysem_bad_input(const char *fmt, const char *a, const char *b) {
  fflush(stdout);
  fprintf(stderr, "arraysem: input: ");
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  _Exit(2);
}
// Futhark's primitive types, as its data files name them; bool is an int
// (1 or 0), f16 and f32 are widened to doubles exactly.
struct arraysem_prim {
  const char *name;
  int bytes;
  char kind;  // 'i' signed, 'u' unsigned, 'f' float, 'b' bool
};
static const arraysem_prim arraysem_prims[] = {{"i8", 1, 'i'},  {"i16", 2, 'i'}, {"i32", 4, 'i'}, {"i64", 8, 'i'},
                                               {"u8", 1, 'u'},  {"u16", 2, 'u'}, {"u32", 4, 'u'}, {"u64", 8, 'u'},
                                               {"f16", 2, 'f'}, {"f32", 4, 'f'}, {"f64", 8, 'f'}, {"bool", 1, 'b'}};
static int arraysem_prim_named(const char *s, size_t n) {
  for (int i = 0; i < 12; i++)
    if (strlen(arraysem_prims[i].name) == n && strncmp(arraysem_prims[i].name, s, n) == 0) return i;
  return -1;
}
// The least and greatest value of an integer type that an int64 holds.
static void arraysem_prim_range(int p, int64_t *lo, int64_t *hi) {
  int bits = 8 * arraysem_prims[p].bytes;
  char k = arraysem_prims[p].kind;
  if (k == 'b') *lo = 0, *hi = 1;
  else if (k == 'u') *lo = 0, *hi = bits == 64 ? INT64_MAX : (int64_t)((1ULL << bits) - 1);
  else *lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1)), *hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
}
// f16 (IEEE binary16) to double, exactly; a double to the nearest f16.
static double arraysem_f16_to_f64(uint16_t h) {
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  int e = (h >> 10) & 0x1f;
  double frac = (double)(h & 0x3ff);
  if (e == 0) return sign * ldexp(frac, -24);
  if (e == 0x1f) return frac != 0 ? NAN : sign * INFINITY;
  return sign * ldexp(1024 + frac, e - 25);
}
static uint16_t arraysem_f64_to_f16(double f) {
  uint16_t sign = 0;
  if (std::signbit(f)) sign = 0x8000, f = -f;
  if (f != f) return 0x7e00;
  if (std::isinf(f)) return sign | 0x7c00;
  int e;
  frexp(f, &e);
  e--;
  if (e < -14) e = -14;
  double units = nearbyint(ldexp(f, 10 - e));  // ties to even, the default rounding
  if (units >= 2048) units /= 2, e++;
  if (units < 1024) return sign | (uint16_t)units;
  if (e > 15) return sign | 0x7c00;
  return sign | (uint16_t)((e + 15) << 10) | (uint16_t)(units - 1024);
}
static void arraysem_skip(const char **s) {
  while (**s == ' ' || **s == '\t' || **s == '\n' || **s == '\r' || **s == ',') (*s)++;
}
static bool arraysem_digit(char c) { return c >= '0' && c <= '9'; }
static bool arraysem_delim(char c) { return c == 0 || strchr(" \t\n\r,[]()", c) != nullptr; }
// Why a data file's literal was refused (arraysem_number, arraysem_parse).
static char arraysem_why[160];
// One number, as semantics.ParseValue reads it: an optional sign, then NaN
// (without a sign), Inf, or a literal as semantics.ScanNumber delimits it
// (digits, then a fraction or an exponent make a float), rounded to the
// nearest double by strtod (correctly rounded, as Go's ParseFloat is; a
// float too large is an error, as there). In a data file (data), also
// Futhark's: true, false, f64.nan, -f32.inf, and a type suffix (7i32,
// 2.5f32) that says how the literal is read and the range it must fit.
static bool arraysem_number(const char **s, int64_t *word, int *elem, int *prim, bool data) {
  const char *p = *s, *j = p;
  *prim = -1;
  const char *w = p + (*p == '-' || *p == '+');
  if (data && (*w == 't' || *w == 'f')) {  // true, false, f64.nan, -f32.inf
    for (int b = 0; b < 2; b++) {
      const char *w = b ? "false" : "true";
      size_t n = strlen(w);
      if (strncmp(p, w, n) == 0 && arraysem_delim(p[n])) {
        *word = b ? 0 : 1, *elem = 0, *prim = 11, *s = p + n;
        return true;
      }
    }
    const char *q = p + (*p == '-' || *p == '+');
    int fp = q[0] == 'f' ? arraysem_prim_named(q, 3) : -1;
    if (fp >= 0 && arraysem_prims[fp].kind == 'f' && q[3] == '.' && arraysem_delim(q[7])) {
      if (strncmp(q + 4, "inf", 3) == 0 || (q == p && strncmp(q + 4, "nan", 3) == 0)) {
        *word = arraysem_f64_bits(q[4] == 'n' ? NAN : *p == '-' ? -INFINITY : INFINITY), *elem = 1, *prim = fp, *s = q + 7;
        return true;
      }
    }
  }
  if (*j == '-' || *j == '+') j++;
  if (j == p && strncmp(j, "NaN", 3) == 0) {
    *word = arraysem_f64_bits(NAN), *elem = 1, *s = j + 3;
    return true;
  }
  if (strncmp(j, "Inf", 3) == 0) {
    *word = arraysem_f64_bits(*p == '-' ? -INFINITY : INFINITY), *elem = 1, *s = j + 3;
    return true;
  }
  const char *q = j;
  while (arraysem_digit(*q)) q++;
  if (q == j) {
    snprintf(arraysem_why, sizeof arraysem_why, "expected a value");
    return false;
  }
  int f = 0;
  if (q[0] == '.' && arraysem_digit(q[1])) {
    for (q++; arraysem_digit(*q); q++) {
    }
    f = 1;
  }
  if (*q == 'e' || *q == 'E') {
    const char *r = q + 1;
    if (*r == '+' || *r == '-') r++;
    if (arraysem_digit(*r)) {
      while (arraysem_digit(*r)) r++;
      q = r, f = 1;
    }
  }
  size_t n = (size_t)(q - p);
  if (data && !arraysem_delim(*q)) {
    size_t m = 0;
    while (!arraysem_delim(q[m])) m++;
    *prim = arraysem_prim_named(q, m);
    if (*prim < 0 || arraysem_prims[*prim].kind == 'b') {
      snprintf(arraysem_why, sizeof arraysem_why, "%.*s: no type suffix (i8 ... i64, u8 ... u64, f16, f32, f64)", (int)m, q);
      return false;
    }
    *s = q + m;
  } else {
    *s = q;
  }
  char small[64];  // a literal's text; a longer one is malloc'd
  char *text = n < sizeof small ? small : (char *)malloc(n + 1);
  memcpy(text, p, n);
  text[n] = 0;
  bool ok = true;
  errno = 0;
  char kind = *prim >= 0 ? arraysem_prims[*prim].kind : 0;
  if (kind == 'f' || (kind == 0 && f)) {
    double x = kind && strcmp(arraysem_prims[*prim].name, "f32") == 0 ? (double)strtof(text, nullptr) : strtod(text, nullptr);
    if (kind && strcmp(arraysem_prims[*prim].name, "f16") == 0 && !std::isinf(x)) x = arraysem_f16_to_f64(arraysem_f64_to_f16(x));
    ok = !std::isinf(x);
    if (!ok) snprintf(arraysem_why, sizeof arraysem_why, "%s: value out of range", text);
    *word = arraysem_f64_bits(x), *elem = 1;
  } else if (f) {
    snprintf(arraysem_why, sizeof arraysem_why, "%s: a float literal with the suffix of an integer type", text);
    ok = false;
  } else {
    long long k = strtoll(text, nullptr, 10);
    ok = errno == 0;
    if (!ok) snprintf(arraysem_why, sizeof arraysem_why, "%s: out of range (past this project's 64-bit int)", text);
    int64_t lo, hi;
    if (ok && *prim >= 0) {
      arraysem_prim_range(*prim, &lo, &hi);
      ok = k >= lo && k <= hi;
      if (!ok) snprintf(arraysem_why, sizeof arraysem_why, "%s%s does not fit in %s", text, arraysem_prims[*prim].name, arraysem_prims[*prim].name);
    }
    *word = k, *elem = 0;
  }
  if (text != small) free(text);
  return ok;
}
// The element type of a value's elements: an array's must agree (ints or
// floats; in a data file, the same type suffix, or none).
static bool arraysem_set_type(arraysem_value *v, int elem, int prim) {
  if (v->elem < 0) {
    v->elem = elem, v->prim = prim;
    return true;
  }
  bool vb = v->prim >= 0 && arraysem_prims[v->prim].kind == 'b', pb = prim >= 0 && arraysem_prims[prim].kind == 'b';
  if (v->elem != elem || (prim >= 0 && v->prim >= 0 && prim != v->prim) || vb != pb) {
    snprintf(arraysem_why, sizeof arraysem_why, "an array mixes elements of different types");
    return false;
  }
  if (v->prim < 0) v->prim = prim;
  return true;
}
static bool arraysem_set_rank(arraysem_value *v, int rank) {
  if (v->rank >= 0 && v->rank != rank) {
    snprintf(arraysem_why, sizeof arraysem_why, "an irregular array (elements nested %d deep, and %d)", rank, v->rank);
    return false;
  }
  v->rank = rank;
  return true;
}
static bool arraysem_set_extent(arraysem_value *v, int depth, int64_t count) {
  if (v->shape[depth] >= 0 && v->shape[depth] != count) {
    snprintf(arraysem_why, sizeof arraysem_why, "an irregular array (rows of %lld and %lld elements)", (long long)count, (long long)v->shape[depth]);
    return false;
  }
  v->shape[depth] = count;
  return true;
}
// empty(TYPE) in a data file: an array of no elements whose shape (with a
// 0 in it) and element type are said.
static bool arraysem_empty(const char **s, arraysem_value *v, int depth) {
  const char *p = *s + 5;
  arraysem_skip(&p);
  snprintf(arraysem_why, sizeof arraysem_why, "empty wants a type, as in empty([0]i64)");
  if (*p != '(') return false;
  p += 1 + strspn(p + 1, " \t\r\n");
  int64_t shape[16], n = 1;
  int k = 0;
  while (*p == '[') {
    char *end;
    errno = 0;
    long long d = strtoll(p + 1, &end, 10);
    end += strspn(end, " \t\r\n");
    if (end == p + 1 || *end != ']' || d < 0 || errno != 0 || k == 16) return false;
    shape[k++] = d, n *= d != 0 ? 1 : 0, p = end + 1;
  }
  size_t m = strcspn(p, ") \t\r\n");
  int prim = arraysem_prim_named(p, m);
  p += m;
  p += strspn(p, " \t\r\n");
  if (prim < 0 || *p != ')' || k == 0 || n != 0 || depth + k > 16) {
    snprintf(arraysem_why, sizeof arraysem_why, "empty(...) wants the shape of an empty array (with a 0 in it) and a type, as in empty([0]i64)");
    return false;
  }
  *s = p + 1;
  if (!arraysem_set_rank(v, depth + k) || !arraysem_set_type(v, arraysem_prims[prim].kind == 'f', prim)) return false;
  for (int i = 0; i < k; i++)
    if (!arraysem_set_extent(v, depth + i, shape[i])) return false;
  return true;
}
// One value literal: a number or a regular bracketed array (in a data
// file, also empty(TYPE)).
static bool arraysem_parse(const char **s, arraysem_value *v, int depth, int64_t *cap, bool data) {
  arraysem_skip(s);
  if (**s != '[') {
    if (data && strncmp(*s, "empty", 5) == 0 && (arraysem_delim((*s)[5]))) return arraysem_empty(s, v, depth);
    int64_t k;
    int elem, prim;
    if (!arraysem_number(s, &k, &elem, &prim, data)) return false;
    int had = v->prim;
    if (!arraysem_set_type(v, elem, prim) || !arraysem_set_rank(v, depth)) return false;
    // An unsuffixed int must fit the type a suffixed element gives the
    // array, whichever comes first ([170 0i8] and [0i8 170] are refused).
    if (elem == 0 && v->prim >= 0 && arraysem_prims[v->prim].kind != 'f') {
      int64_t lo, hi;
      arraysem_prim_range(v->prim, &lo, &hi);
      if (prim < 0 && (k < lo || k > hi)) {
        snprintf(arraysem_why, sizeof arraysem_why, "%lld does not fit in %s, the array's type", (long long)k, arraysem_prims[v->prim].name);
        return false;
      }
      if (had < 0)
        for (int64_t i = 0; i < v->len; i++)
          if (v->data[i] < lo || v->data[i] > hi) {
            snprintf(arraysem_why, sizeof arraysem_why, "an element before this one, %lld, does not fit in %s, the type this %s gives the array", (long long)v->data[i], arraysem_prims[v->prim].name, arraysem_prims[v->prim].name);
            return false;
          }
    }
    if (v->len == *cap) {
      *cap = *cap * 2 + 8;
      v->data = (int64_t *)realloc(v->data, (size_t)*cap * sizeof(int64_t));
    }
    v->data[v->len++] = k;
    return true;
  }
  snprintf(arraysem_why, sizeof arraysem_why, "an array nested more than 16 deep");
  if (depth >= 16) return false;
  (*s)++;
  int64_t count = 0;
  for (;;) {
    arraysem_skip(s);
    if (**s == ']') break;
    snprintf(arraysem_why, sizeof arraysem_why, "a '[' without its ']'");
    if (**s == 0 || !arraysem_parse(s, v, depth + 1, cap, data)) return false;
    count++;
  }
  (*s)++;
  if (count == 0 && !arraysem_set_rank(v, depth + 1)) return false;
  return arraysem_set_extent(v, depth, count);
}
static arraysem_value *arraysem_find(const char *name, size_t n) {
  for (int i = 0; i < arraysem_nvalues; i++)
    if (strlen(arraysem_values[i].name) == n && strncmp(arraysem_values[i].name, name, n) == 0) return &arraysem_values[i];
  return nullptr;
}
static void arraysem_clear(arraysem_value *v) {
  free(v->data);
  v->data = nullptr, v->len = 0, v->rank = -1, v->given = true, v->elem = -1, v->prim = -1;
  for (int i = 0; i < 16; i++) v->shape[i] = -1;
}

// A data file being read, through a buffer of its own (so that a comment,
// --, is told from a sign by looking two bytes ahead): the position of the
// next byte (lines, and columns counting UTF-8 characters, as the
// interpreter's reader counts them), and the bytes left in it (-1 when
// unknown: a pipe).
struct arraysem_reader {
  FILE *f;
  const char *file;
  long long line, col, vline, vcol;  // the next byte's position; the value's
  long long left;
  unsigned char *buf;
  size_t pos, len;
};
static void arraysem_data_error(const arraysem_reader *r, const char *fmt, ...) {
  fflush(stdout);
  fprintf(stderr, "arraysem: input: %s:%lld:%lld: ", r->file, r->vline, r->vcol);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  _Exit(2);
}
static const size_t arraysem_reader_size = 1 << 16;
static void arraysem_advance(arraysem_reader *r, const unsigned char *b, size_t n) {
  if (r->left >= 0) r->left -= (long long)n;
  for (size_t i = 0; i < n; i++) {
    if (b[i] == '\n') r->line++, r->col = 1;
    else if ((b[i] & 0xC0) != 0x80) r->col++;
  }
}
// The byte k places ahead (k < 2), or EOF.
static int arraysem_peekc(arraysem_reader *r, size_t k) {
  if (r->pos + k >= r->len) {
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->len -= r->pos, r->pos = 0;
    r->len += fread(r->buf + r->len, 1, arraysem_reader_size - r->len, r->f);
  }
  return r->pos + k < r->len ? r->buf[r->pos + k] : EOF;
}
static int arraysem_getc(arraysem_reader *r) {
  int c = arraysem_peekc(r, 0);
  if (c != EOF) arraysem_advance(r, r->buf + r->pos++, 1);
  return c;
}
// Reads n bytes into dst; false when the file ends first.
static bool arraysem_read(arraysem_reader *r, void *dst, size_t n) {
  unsigned char *d = (unsigned char *)dst;
  size_t k = r->len - r->pos < n ? r->len - r->pos : n;
  memcpy(d, r->buf + r->pos, k);
  r->pos += k;
  size_t got = k + (n > k ? fread(d + k, 1, n - k, r->f) : 0);
  // Binary bytes: lines counted by memchr, columns in bytes (a message
  // after a binary value may count its columns otherwise than the
  // interpreter's reader, which counts characters).
  if (r->left >= 0) r->left -= (long long)got;
  const unsigned char *p = d, *end = d + got, *nl;
  while ((nl = (const unsigned char *)memchr(p, '\n', (size_t)(end - p))) != nullptr) r->line++, r->col = 1, p = nl + 1;
  r->col += end - p;
  return got == n;
}
// Skips white space, commas and comments (-- to the end of the line); the
// next byte, or EOF.
static int arraysem_data_skip(arraysem_reader *r) {
  for (;;) {
    int c = arraysem_peekc(r, 0);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',') {
      arraysem_getc(r);
    } else if (c == '-' && arraysem_peekc(r, 1) == '-') {
      while ((c = arraysem_getc(r)) != EOF && c != '\n') {
      }
    } else {
      return c;
    }
  }
}
// A text value's characters, comments left out, NUL-terminated (malloc'd):
// an array to its closing bracket, else a word up to a delimiter (and
// empty(TYPE) through its parenthesis).
static char *arraysem_text_value(arraysem_reader *r) {
  size_t n = 0, cap = 64;
  char *t = (char *)malloc(cap);
  int depth = 0;
  bool word = arraysem_peekc(r, 0) != '[', empty = false;
  for (;;) {
    if (r->pos >= r->len && arraysem_peekc(r, 0) == EOF) break;
    int c = r->buf[r->pos];
    bool comment = c == '-' && arraysem_peekc(r, 1) == '-';
    if (word && !empty && (comment || arraysem_delim((char)c))) {
      if (n != 5 || strncmp(t, "empty", 5) != 0) break;
      empty = true;
    }
    if (comment) {
      while ((c = arraysem_getc(r)) != EOF && c != '\n') {
      }
      c = ' ';
    } else {
      // The byte taken, inline (arraysem_getc's work): this loop reads
      // every byte of a text value.
      r->pos++;
      if (r->left >= 0) r->left--;
      if (c == '\n') r->line++, r->col = 1;
      else if ((c & 0xC0) != 0x80) r->col++;
    }
    if (n + 2 > cap) t = (char *)realloc(t, cap *= 2);
    t[n++] = (char)c;
    if (!word && c == '[') depth++;
    if (!word && c == ']' && --depth == 0) break;
    if (empty && c == ')') break;
  }
  t[n] = 0;
  return t;
}
// A binary value (Futhark's binary data format, version 2): its elements
// read a chunk at a time straight into the value's buffer.
static void arraysem_binary_value(arraysem_reader *r, arraysem_value *v) {
  unsigned char head[7];
  if (!arraysem_read(r, head, 7)) arraysem_data_error(r, "the file ends inside a binary value's header");
  if (head[1] != 2) arraysem_data_error(r, "binary value of version %d; Futhark's binary data format is version 2", head[1]);
  int rank = (int)(signed char)head[2];
  if (rank < 0 || rank > 16) arraysem_data_error(r, "binary value of rank %d (0 to 16)", rank);
  size_t sp = 0;
  while (sp < 4 && head[3 + sp] == ' ') sp++;
  int prim = arraysem_prim_named((const char *)head + 3 + sp, 4 - sp);
  if (prim < 0) arraysem_data_error(r, "binary value of type \"%.4s\": not one of Futhark's", (const char *)head + 3);
  int64_t n = 1;
  for (int d = 0; d < rank; d++) {
    unsigned char b[8];
    if (!arraysem_read(r, b, 8)) arraysem_data_error(r, "the file ends inside a binary value's shape");
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--) u = u << 8 | b[i];
    if (u > (uint64_t)INT64_MAX) arraysem_data_error(r, "binary value: size %lld is negative", (long long)u);
    v->shape[d] = (int64_t)u;
    if (u != 0 && n > arraysem_max_block / (int64_t)u) n = arraysem_max_block + 1;
    else n *= (int64_t)u;
  }
  if (n > arraysem_max_block) arraysem_data_error(r, "binary value of more than %lld elements, the heap's limit", (long long)arraysem_max_block);
  int size = arraysem_prims[prim].bytes;
  if (r->left >= 0 && n > r->left / size)
    arraysem_data_error(r, "binary value of %lld elements of %d bytes, but the file has %lld bytes left", (long long)n, size, r->left);
  v->rank = rank, v->prim = prim, v->elem = arraysem_prims[prim].kind == 'f', v->len = n;
  v->data = n > 0 ? (int64_t *)malloc((size_t)n * sizeof(int64_t)) : nullptr;
  if (n > 0 && v->data == nullptr) arraysem_data_error(r, "out of memory for %lld elements", (long long)n);
  static unsigned char chunk[1 << 16];
  const uint16_t one = 1;
  bool little = *(const unsigned char *)&one == 1;
  const char *name = arraysem_prims[prim].name;
  for (int64_t done = 0; done < n;) {
    int64_t k = n - done < (int64_t)(sizeof chunk) / size ? n - done : (int64_t)(sizeof chunk) / size;
    int64_t *out = v->data + done;
    // Eight-byte elements on a little-endian host go straight into the
    // value's buffer; others through the chunk.
    bool direct = size == 8 && little;
    if (!arraysem_read(r, direct ? (void *)out : (void *)chunk, (size_t)(k * size)))
      arraysem_data_error(r, "the file ends inside a binary value's elements (%lld of %lld read)", (long long)done, (long long)n);
    for (int64_t i = 0; i < k && !(direct && arraysem_prims[prim].kind == 'i'); i++) {
      const unsigned char *b = chunk + i * size;
      uint64_t u = 0;
      if (!direct)
        for (int j = size - 1; j >= 0; j--) u = u << 8 | b[j];
      else
        u = (uint64_t)out[i];
      switch (arraysem_prims[prim].kind) {
        case 'i':
          out[i] = size == 8 ? (int64_t)u : size == 4 ? (int64_t)(int32_t)u : size == 2 ? (int64_t)(int16_t)u : (int64_t)(int8_t)u;
          break;
        case 'u':
          if (u > (uint64_t)INT64_MAX)
            arraysem_data_error(r, "binary value of type u64: element %lld is %llu, past this project's largest int, 2^63-1", (long long)(done + i + 1), (unsigned long long)u);
          out[i] = (int64_t)u;
          break;
        case 'b':
          if (u > 1) arraysem_data_error(r, "binary value of type bool: element %lld is byte %d, no bool (0 or 1)", (long long)(done + i + 1), (int)u);
          out[i] = (int64_t)u;
          break;
        default:
          if (strcmp(name, "f64") == 0) {
            double x;
            memcpy(&x, &u, 8);
            out[i] = arraysem_f64_bits(x);
          } else if (strcmp(name, "f32") == 0) {
            uint32_t w = (uint32_t)u;
            float x;
            memcpy(&x, &w, 4);
            out[i] = arraysem_f64_bits((double)x);
          } else {
            out[i] = arraysem_f64_bits(arraysem_f16_to_f64((uint16_t)u));
          }
      }
    }
    done += k;
  }
}
// Opens a data file for reading.
static void arraysem_close(arraysem_reader *r) {
  fclose(r->f);
  free(r->buf);
}
static void arraysem_open(arraysem_reader *r, const char *file) {
  r->file = file, r->line = 1, r->col = 1, r->vline = 1, r->vcol = 1, r->left = -1;
  r->buf = (unsigned char *)malloc(arraysem_reader_size), r->pos = 0, r->len = 0;
  r->f = fopen(file, "rb");
  if (r->f == nullptr) {
    fflush(stdout);
    fprintf(stderr, "arraysem: input: %s: cannot read the data file: %s\n", file, strerror(errno));
    _Exit(2);
  }
  if (fseek(r->f, 0, SEEK_END) == 0) {
    long size = ftell(r->f);
    if (size >= 0) r->left = size;
  }
  if (fseek(r->f, 0, SEEK_SET) != 0) r->left = -1;
}
// Reads the next value of a data file into v; false at the end.
static bool arraysem_read_value(arraysem_reader *r, arraysem_value *v) {
  int c = arraysem_data_skip(r);
  if (c == EOF) return false;
  r->vline = r->line, r->vcol = r->col;
  free(v->data);
  v->data = nullptr, v->len = 0, v->rank = -1, v->elem = -1, v->prim = -1;
  for (int i = 0; i < 16; i++) v->shape[i] = -1;
  if (c == 'b') {
    arraysem_binary_value(r, v);
    return true;
  }
  char *text = arraysem_text_value(r);
  const char *s = text;
  int64_t cap = 0;
  if (!arraysem_parse(&s, v, 0, &cap, true)) arraysem_data_error(r, "%s", arraysem_why);
  arraysem_skip(&s);
  if (*s != 0) arraysem_data_error(r, "text after the value: %s", s);
  free(text);
  return true;
}

static void arraysem_set(const char *arg) {
  const char *eq = strchr(arg, '=');
  if (eq == nullptr) arraysem_bad_input("%s: want NAME=VALUE%s", arg, "");
  arraysem_value *v = arraysem_find(arg, (size_t)(eq - arg));
  if (v == nullptr) arraysem_bad_input("%s: the program declares no input of that name%s", arg, "");
  arraysem_clear(v);
  if (eq[1] == '@') {
    arraysem_reader r;
    arraysem_open(&r, eq + 2);
    if (!arraysem_read_value(&r, v)) arraysem_data_error(&r, "the file holds no value");
    if (arraysem_data_skip(&r) != EOF) {
      r.vline = r.line, r.vcol = r.col;
      arraysem_data_error(&r, "a second value, where the file is to hold one (--data FILE reads a value for each input)");
    }
    arraysem_close(&r);
    v->given = true;
    return;
  }
  int64_t cap = 0;
  const char *s = eq + 1;
  if (!arraysem_parse(&s, v, 0, &cap, false)) arraysem_bad_input("%s: not a number or a regular array literal (ints and floats unmixed)%s", arg, "");
  arraysem_skip(&s);
  if (*s != 0) arraysem_bad_input("%s: text after the value%s", arg, "");
}
// --data FILE: the file's values go to the inputs in order, or to those
// that are not sizes of array inputs (a Futhark data set gives only the
// arrays).
static void arraysem_set_data(const char *file) {
  static arraysem_value read[64];
  arraysem_reader r;
  arraysem_open(&r, file);
  int count = 0;
  for (;;) {
    if (count == 64) arraysem_data_error(&r, "more values than a program has inputs");
    if (!arraysem_read_value(&r, &read[count])) break;
    count++;
  }
  arraysem_close(&r);
  bool size[64] = {false};
  int free_inputs = 0;
  for (int i = 0; i < arraysem_nvalues; i++)
    for (int d = 0; d < arraysem_values[i].ndims; d++) {
      arraysem_value *s = arraysem_find(arraysem_values[i].dims[d], strlen(arraysem_values[i].dims[d]));
      if (s != nullptr) size[s - arraysem_values] = true;
    }
  for (int i = 0; i < arraysem_nvalues; i++) free_inputs += !size[i];
  if (count != arraysem_nvalues && count != free_inputs) {
    fflush(stdout);
    fprintf(stderr, "arraysem: input: --data %s holds %d values, but the program takes %d inputs (or %d without the sizes read off arrays)\n", file, count, arraysem_nvalues, free_inputs);
    _Exit(2);
  }
  for (int i = 0, k = 0; i < arraysem_nvalues; i++) {
    if (count != arraysem_nvalues && size[i]) continue;
    arraysem_value *v = &arraysem_values[i], *w = &read[k++];
    arraysem_clear(v);
    v->rank = w->rank, v->data = w->data, v->len = w->len, v->elem = w->elem, v->prim = w->prim;
    memcpy(v->shape, w->shape, sizeof v->shape);
    w->data = nullptr;
  }
}
static void arraysem_set_size(arraysem_value *array, int i, int64_t k) {
  arraysem_value *d = arraysem_find(array->dims[i], strlen(array->dims[i]));
  if (d == nullptr) arraysem_bad_input("%s: size %s is not an input", array->name, array->dims[i]);
  if (d->given) {
    if (d->rank != 0 || d->data[0] != k) arraysem_bad_input("input %s: its size %s disagrees with its elements", array->name, d->name);
    return;
  }
  d->data = (int64_t *)malloc(sizeof(int64_t));
  d->data[0] = k, d->len = 1, d->rank = 0, d->given = true, d->elem = 0;
}
static void arraysem_start(int argc, char **argv, const char *const *decls, const char *const *defaults, const char *const *sites) {
  arraysem_site_text = sites;
  if (const char *b = getenv("ARRAYSEM_BLOCK")) arraysem_threads_per_block = atoi(b) > 0 ? atoi(b) : 256;
  for (int i = 0; decls[i] != nullptr; i++) {
    arraysem_value *v = &arraysem_values[arraysem_nvalues++];
    memset(v, 0, sizeof *v);
    v->prim = -1;
    const char *s = decls[i];
    size_t n = strcspn(s, "[:");
    memcpy(v->name, s, n < 63 ? n : 63);
    for (s += n; *s == '[' && v->ndims < 16; v->ndims++) {
      size_t m = strcspn(++s, "]");
      memcpy(v->dims[v->ndims], s, m < 63 ? m : 63);
      s += m + 1;
    }
    v->is_float = strcmp(s, ":float") == 0;
  }
  const char *data = nullptr;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") != 0) continue;
    if (i + 1 == argc) arraysem_bad_input("--data wants a FILE%s%s", "", "");
    if (data != nullptr) arraysem_bad_input("--data given twice%s%s", "", "");
    data = argv[i + 1];
  }
  if (data != nullptr) {
    arraysem_set_data(data);
  } else {
    for (int i = 0; defaults[i] != nullptr; i++) arraysem_set(defaults[i]);
  }
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--data") == 0) {
      i++;
      continue;
    }
    if (strcmp(argv[i], "--arg") == 0 && i + 1 < argc) i++;
    const char *eq = strchr(argv[i], '=');
    arraysem_value *v = eq ? arraysem_find(argv[i], (size_t)(eq - argv[i])) : nullptr;
    if (data != nullptr && v != nullptr && v->given) arraysem_bad_input("%s: the input is given twice, by --data %s and by the argument", argv[i], data);
    arraysem_set(argv[i]);
  }
  arraysem_value *empties[64];
  int nempty = 0;
  for (int i = 0; i < arraysem_nvalues; i++) {
    arraysem_value *v = &arraysem_values[i];
    if (!v->given) continue;
    if (v->elem >= 0 && (v->elem == 1) != v->is_float)
      arraysem_bad_input("input %s is %s, but the argument is not (no implicit conversions)", v->name, v->is_float ? "a float" : "an int");
    if (v->ndims == 0) {
      if (v->rank != 0) arraysem_bad_input("input %s is an int, but the argument is an array%s", v->name, "");
      continue;
    }
    if (v->rank < v->ndims && v->rank > 0 && v->len == 0 && v->shape[v->rank - 1] == 0) {
      empties[nempty++] = v;
      continue;
    }
    if (v->rank != v->ndims) arraysem_bad_input("input %s: the argument's rank is not the declared one%s", v->name, "");
    for (int d = 0; d < v->ndims; d++) arraysem_set_size(v, d, v->shape[d]);
  }
  for (int e = 0; e < nempty; e++) {
    arraysem_value *v = empties[e];
    for (int d = v->rank; d < v->ndims; d++) {
      arraysem_value *s = arraysem_find(v->dims[d], strlen(v->dims[d]));
      if (s == nullptr || !s->given) arraysem_bad_input("input %s is empty, so its size %s must be given", v->name, v->dims[d]);
      v->shape[d] = s->data[0];
    }
    for (int d = 0; d < v->rank; d++) arraysem_set_size(v, d, v->shape[d]);
    v->rank = v->ndims;
  }
  for (int i = 0; i < arraysem_nvalues; i++)
    if (!arraysem_values[i].given) arraysem_bad_input("missing input %s (give it as %s=VALUE)", arraysem_values[i].name, arraysem_values[i].name);
}
static int64_t arraysem_input_int(const char *name) { return arraysem_find(name, strlen(name))->data[0]; }
static double arraysem_input_float(const char *name) { return arraysem_f64_from_bits(arraysem_find(name, strlen(name))->data[0]); }
static int64_t arraysem_input_len(const char *name) { return arraysem_find(name, strlen(name))->len; }
static const int64_t *arraysem_input_data(const char *name) { return arraysem_find(name, strlen(name))->data; }

// Results, printed as `arraysem run` prints them.
static int64_t *arraysem_buffers[256];
static int arraysem_nbuffers;
static int64_t *arraysem_host_buffer(int64_t n) {
  if (arraysem_nbuffers == 256) {
    fprintf(stderr, "arraysem: more than 256 results\n");
    _Exit(1);
  }
  return arraysem_buffers[arraysem_nbuffers++] = (int64_t *)malloc(arraysem_alloc_bytes(n));
}
// The number of elements of a result's shape, with semantics.Count's checks.
static int64_t arraysem_count(int neg_site, int big_site, int rank, ...) {
  va_list ap;
  va_start(ap, rank);
  int64_t n = 1;
  for (int i = 0; i < rank; i++) {
    int64_t d = va_arg(ap, int64_t);
    if (d < 0) arraysem_fail(neg_site, d, 0);
    if (d != 0 && n > arraysem_max_block / d) arraysem_fail(big_site, arraysem_max_block, 0);
    n *= d;
  }
  va_end(ap);
  return n;
}
static void arraysem_print_int(int64_t k) { printf("%lld\n", (long long)k); }
// A float as values print (semantics.FormatFloat): Go's shortest form that
// reads back exactly (strconv 'g', precision -1), with ".0" appended when
// it would read as an int; +Inf, -Inf, NaN. The digits are Go's: the
// fewest p for which a p-digit decimal reads back (strtod) as x, and of
// those the correctly rounded one (%.*e); when it does not read back, its
// neighbour one unit above or below may (next to a power of two, where the
// gap below x is half the gap above). The layout is Go's: an exponent
// (with its sign, at least two digits) when the decimal exponent is below
// -4 or at least 6, else plain digits.
static bool arraysem_digits(double x, uint64_t d, int e, uint64_t *digits, int *exp) {
  char tmp[64];
  snprintf(tmp, sizeof tmp, "%llue%d", (unsigned long long)d, e);
  if (strtod(tmp, nullptr) != fabs(x)) return false;
  while (d >= 10 && d % 10 == 0) d /= 10, e++;
  *digits = d, *exp = e;
  return true;
}
static void arraysem_format_float(char *out, double x) {
  if (x != x) {
    strcpy(out, "NaN");
    return;
  }
  if (std::isinf(x)) {
    strcpy(out, x > 0 ? "+Inf" : "-Inf");
    return;
  }
  // x = digits * 10^exp
  uint64_t digits = 0;
  int exp = 0;
  for (int p = 1; p <= 17; p++) {
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, fabs(x));
    uint64_t d = 0;
    const char *s = tmp;
    for (; *s != 'e'; s++)
      if (*s != '.') d = d * 10 + (uint64_t)(*s - '0');
    int e = atoi(s + 1) - (p - 1);
    if (arraysem_digits(x, d, e, &digits, &exp)) break;
    if (d > 0 && arraysem_digits(x, d - 1, e, &digits, &exp)) break;
    if (arraysem_digits(x, d + 1, e, &digits, &exp)) break;
  }
  char digs[32];
  int nd = snprintf(digs, sizeof digs, "%llu", (unsigned long long)digits);
  int dexp = nd - 1 + exp;  // the decimal exponent: x = d.ddd * 10^dexp
  char *o = out;
  if (std::signbit(x)) *o++ = '-';
  if (dexp < -4 || dexp >= 6) {
    *o++ = digs[0];
    if (nd > 1) {
      *o++ = '.';
      for (int i = 1; i < nd; i++) *o++ = digs[i];
    }
    o += sprintf(o, "e%c%02d", dexp < 0 ? '-' : '+', dexp < 0 ? -dexp : dexp);
  } else {
    int dp = dexp + 1;  // digits before the point
    if (dp <= 0) {
      *o++ = '0';
    } else {
      for (int i = 0; i < dp; i++) *o++ = i < nd ? digs[i] : '0';
    }
    *o++ = '.';
    if (nd > dp) {
      for (int i = dp; i < 0; i++) *o++ = '0';
      for (int i = dp > 0 ? dp : 0; i < nd; i++) *o++ = digs[i];
    } else {
      *o++ = '0';
    }
  }
  *o = 0;
}
static void arraysem_print_float(double x) {
  char buf[64];
  arraysem_format_float(buf, x);
  printf("%s\n", buf);
}
static void arraysem_print_rec(const int64_t *data, int rank, const int64_t *shape, int dim, int64_t off, bool floats) {
  if (dim == rank) {
    if (floats) {
      char buf[64];
      arraysem_format_float(buf, arraysem_f64_from_bits(data[off]));
      fputs(buf, stdout);
    } else {
      printf("%lld", (long long)data[off]);
    }
    return;
  }
  int64_t stride = 1;
  for (int i = dim + 1; i < rank; i++) stride *= shape[i];
  putchar('[');
  for (int64_t i = 0; i < shape[dim]; i++) {
    if (i > 0) putchar(' ');
    arraysem_print_rec(data, rank, shape, dim + 1, off + i * stride, floats);
  }
  putchar(']');
}
static void arraysem_print_array(const int64_t *data, int rank, ...) {
  int64_t shape[64];
  va_list ap;
  va_start(ap, rank);
  for (int i = 0; i < rank && i < 64; i++) shape[i] = va_arg(ap, int64_t);
  va_end(ap);
  arraysem_print_rec(data, rank, shape, 0, 0, false);
  putchar('\n');
}
// An array of floats: its words are the floats' bits.
static void arraysem_print_float_array(const int64_t *data, int rank, ...) {
  int64_t shape[64];
  va_list ap;
  va_start(ap, rank);
  for (int i = 0; i < rank && i < 64; i++) shape[i] = va_arg(ap, int64_t);
  va_end(ap);
  arraysem_print_rec(data, rank, shape, 0, 0, true);
  putchar('\n');
}
// Results printed as the source program prints its values (a program
// compiled from Remora carries the result format, semantics.Format, in
// its table arraysem_format): the results are kept as they are copied
// back, then arraysem_print_source prints them by the format: #t and #f,
// characters and strings as Racket writes them, floats as Racket prints
// them (+inf.0, +nan.0), boxes as (box (w …) v), or (box v) for the
// dynamic dialect ("SOURCE untyped:"). The format's text is
//   SOURCE [untyped]: item …      item = int | float | bool | char | rat | (box W item)
//                             | (open W item), a box printed as its contents
//                             | (boxes R W (D …) item), D = 3, w1, w1+w2+1
struct arraysem_source_result {
  const int64_t *data;
  int64_t scalar;
  int rank;
  int64_t shape[16];
  bool floats;
};
static arraysem_source_result arraysem_source_results[256];
static int arraysem_nsource_results;
static arraysem_source_result *arraysem_keep_next() {
  if (arraysem_nsource_results == 256) {
    fprintf(stderr, "arraysem: more than 256 results\n");
    _Exit(1);
  }
  arraysem_source_result *k = &arraysem_source_results[arraysem_nsource_results++];
  memset(k, 0, sizeof *k);
  return k;
}
static void arraysem_keep_int(int64_t v) {
  arraysem_source_result *k = arraysem_keep_next();
  k->scalar = v, k->data = &k->scalar;
}
static void arraysem_keep_float(double x) {
  arraysem_source_result *k = arraysem_keep_next();
  k->scalar = arraysem_f64_bits(x), k->data = &k->scalar, k->floats = true;
}
static void arraysem_keep_shape(arraysem_source_result *k, int rank, va_list ap) {
  k->rank = rank;
  for (int i = 0; i < rank && i < 16; i++) k->shape[i] = va_arg(ap, int64_t);
}
static void arraysem_keep_array(const int64_t *data, int rank, ...) {
  arraysem_source_result *k = arraysem_keep_next();
  va_list ap;
  va_start(ap, rank);
  arraysem_keep_shape(k, rank, ap);
  va_end(ap);
  k->data = data;
}
static void arraysem_keep_float_array(const int64_t *data, int rank, ...) {
  arraysem_source_result *k = arraysem_keep_next();
  va_list ap;
  va_start(ap, rank);
  arraysem_keep_shape(k, rank, ap);
  va_end(ap);
  k->data = data, k->floats = true;
}
static void arraysem_unfit(const char *why) {
  fflush(stdout);
  fprintf(stderr, "arraysem: the results do not fit their format: %s\n", why);
  _Exit(1);
}
// The code points unicode.IsGraphic holds graphic, as "LO-HI …" in hex
// (emitted only for a program with character results).
static const char *arraysem_graphic_text;
static bool arraysem_is_graphic(int64_t r) {
  if (r < 0x20 || r > 0x10FFFF || arraysem_graphic_text == nullptr) return false;
  for (const char *s = arraysem_graphic_text; *s != 0;) {
    char *e;
    long long lo = strtoll(s, &e, 16);
    long long hi = strtoll(e + 1, &e, 16);
    if (r < lo) return false;
    if (r <= hi) return true;
    s = e;
    while (*s == ' ') s++;
  }
  return false;
}
static void arraysem_put_utf8(int64_t r) {
  if (r < 0 || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) r = 0xFFFD;
  if (r < 0x80) {
    putchar((int)r);
  } else if (r < 0x800) {
    putchar(0xC0 | (int)(r >> 6)), putchar(0x80 | (int)(r & 0x3F));
  } else if (r < 0x10000) {
    putchar(0xE0 | (int)(r >> 12)), putchar(0x80 | (int)((r >> 6) & 0x3F)), putchar(0x80 | (int)(r & 0x3F));
  } else {
    putchar(0xF0 | (int)(r >> 18)), putchar(0x80 | (int)((r >> 12) & 0x3F));
    putchar(0x80 | (int)((r >> 6) & 0x3F)), putchar(0x80 | (int)(r & 0x3F));
  }
}
// A character as semantics.QuoteChar writes it.
static void arraysem_put_char(int64_t w) {
  int32_t r = (int32_t)w;
  static const int32_t codes[] = {' ', '\n', '\t', 0, '\r', '\b', 0x7f};
  static const char *const names[] = {"space", "newline", "tab", "nul", "return", "backspace", "delete"};
  for (int i = 0; i < 7; i++)
    if (codes[i] == r) {
      printf("#\\%s", names[i]);
      return;
    }
  if (!arraysem_is_graphic(r)) {
    printf("#\\u%04X", (unsigned)r);
    return;
  }
  fputs("#\\", stdout);
  arraysem_put_utf8(r);
}
// A row of characters as semantics.QuoteString writes it.
static void arraysem_put_string(const int64_t *d, int64_t n) {
  putchar('"');
  for (int64_t i = 0; i < n; i++) {
    int64_t r = (int32_t)d[i];
    if (r < 0 || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) r = 0xFFFD;  // Go's string(rune) of an invalid rune
    if (r == '"' || r == '\\') {
      putchar('\\'), putchar((int)r);
    } else if (r == '\n') {
      fputs("\\n", stdout);
    } else if (r == '\t') {
      fputs("\\t", stdout);
    } else if (r == '\r') {
      fputs("\\r", stdout);
    } else if (arraysem_is_graphic(r)) {
      arraysem_put_utf8(r);
    } else if (r > 0xFFFF) {
      printf("\\U%08X", (unsigned)r);
    } else {
      printf("\\u%04X", (unsigned)r);
    }
  }
  putchar('"');
}
// An atom (0 int, 1 float, 2 bool, 3 char) as semantics.FormatAtom prints it.
static void arraysem_put_atom(int atom, int64_t w) {
  switch (atom) {
    case 1: {
      double x = arraysem_f64_from_bits(w);
      char buf[64];
      arraysem_format_float(buf, x);
      fputs(x != x ? "+nan.0" : std::isinf(x) ? (x > 0 ? "+inf.0" : "-inf.0") : buf, stdout);
      return;
    }
    case 2:
      if (w != 0 && w != 1) arraysem_unfit("a boolean neither 0 nor 1");
      fputs(w != 0 ? "#t" : "#f", stdout);
      return;
    case 3:
      arraysem_put_char(w);
      return;
  }
  printf("%lld", (long long)w);
}
// Atom 4 (rat): exact rationals, the last axis (of 2) a numerator and
// a denominator, printed n or n/d.
static void arraysem_put_atoms(int atom, const int64_t *data, int rank, const int64_t *shape, int dim, int64_t off) {
  if (atom == 4 && dim == rank - 1) {
    printf("%lld", (long long)data[off]);
    if (data[off + 1] != 1) printf("/%lld", (long long)data[off + 1]);
    return;
  }
  if (dim == rank) {
    arraysem_put_atom(atom, data[off]);
    return;
  }
  if (atom == 3 && dim == rank - 1 && shape[dim] > 0) {
    arraysem_put_string(data + off, shape[dim]);
    return;
  }
  int64_t stride = 1;
  for (int i = dim + 1; i < rank; i++) stride *= shape[i];
  putchar('[');
  for (int64_t i = 0; i < shape[dim]; i++) {
    if (i > 0) putchar(' ');
    arraysem_put_atoms(atom, data, rank, shape, dim + 1, off + i * stride);
  }
  putchar(']');
}
// The format's text, read token by token.
static void arraysem_fmt_space(const char **s) {
  while (**s == ' ') (*s)++;
}
static bool arraysem_fmt_word(const char **s, const char *w) {
  arraysem_fmt_space(s);
  size_t n = strlen(w);
  if (strncmp(*s, w, n) != 0 || ((*s)[n] != 0 && (*s)[n] != ' ' && (*s)[n] != ')' && (*s)[n] != '(')) return false;
  *s += n;
  return true;
}
static int64_t arraysem_fmt_count(const char **s) {
  arraysem_fmt_space(s);
  char *e;
  long long n = strtoll(*s, &e, 10);
  if (e == *s) arraysem_unfit("a count expected in the format");
  *s = e;
  return n;
}
static void arraysem_fmt_expect(const char **s, char c) {
  arraysem_fmt_space(s);
  if (**s != c) arraysem_unfit("the format is malformed");
  (*s)++;
}
// A dimension of a frame's boxes: a sum of constants and witnesses wK.
static int64_t arraysem_fmt_dim(const char **s, const int64_t *wits) {
  arraysem_fmt_space(s);
  int64_t d = 0;
  for (;;) {
    if (**s == 'w') {
      (*s)++;
      d += wits[arraysem_fmt_count(s) - 1];
    } else {
      d += arraysem_fmt_count(s);
    }
    if (**s != '+') return d;
    (*s)++;
  }
}
static int arraysem_fmt_atom(const char **s) {
  static const char *const names[] = {"int", "float", "bool", "char", "rat"};
  for (int i = 0; i < 5; i++)
    if (arraysem_fmt_word(s, names[i])) return i;
  return -1;
}
static void arraysem_open_box(bool typed, const int64_t *wits, int64_t n) {
  fputs("(box ", stdout);
  if (!typed) return;
  putchar('(');
  for (int64_t i = 0; i < n; i++) printf(i > 0 ? " %lld" : "%lld", (long long)wits[i]);
  fputs(") ", stdout);
}
// A frame of boxes being printed: its witnesses' results, its data, the
// contents' dimensions (the format's text), and the next box and word.
struct arraysem_boxes {
  const arraysem_source_result *ws, *data;
  int64_t w, p, off;
  const char *dims;
  int atom;
  bool typed;
};
static void arraysem_put_boxes(arraysem_boxes *b, int rank, const int64_t *frame, int dim) {
  if (dim < rank) {
    putchar('[');
    for (int64_t i = 0; i < frame[dim]; i++) {
      if (i > 0) putchar(' ');
      arraysem_put_boxes(b, rank, frame, dim + 1);
    }
    putchar(']');
    return;
  }
  int64_t wits[64], shape[16], size = 1;
  for (int64_t i = 0; i < b->w; i++) wits[i] = b->ws[i].data[b->p];
  const char *d = b->dims;
  int nd = 0;
  for (arraysem_fmt_space(&d); *d != ')' && *d != 0 && nd < 16; arraysem_fmt_space(&d)) {
    shape[nd] = arraysem_fmt_dim(&d, wits);
    size *= shape[nd++];
  }
  arraysem_open_box(b->typed, wits, b->w);
  arraysem_put_atoms(b->atom, b->data->data + b->off, nd, shape, 0, 0);
  putchar(')');
  b->off += size, b->p++;
}
// arraysem_put_item prints the item at *s from the results from *next on.
static void arraysem_put_item(const char **s, bool typed, int *next) {
  int atom = arraysem_fmt_atom(s);
  if (atom >= 0) {
    if (*next >= arraysem_nsource_results) arraysem_unfit("a result is missing");
    arraysem_source_result *k = &arraysem_source_results[(*next)++];
    if (k->floats != (atom == 1)) {
      int64_t n = 1;
      for (int i = 0; i < k->rank; i++) n *= k->shape[i];
      if (n > 0) arraysem_unfit("a result of the wrong kind of numbers");
    }
    if (atom == 4 && (k->rank == 0 || k->shape[k->rank - 1] != 2)) arraysem_unfit("exact rationals without their pairs");
    arraysem_put_atoms(atom, k->data, k->rank, k->shape, 0, 0);
    return;
  }
  arraysem_fmt_expect(s, '(');
  if (arraysem_fmt_word(s, "open")) {
    int64_t w = arraysem_fmt_count(s);
    for (int64_t i = 0; i < w; i++) {
      if (*next >= arraysem_nsource_results || arraysem_source_results[*next].rank != 0) arraysem_unfit("a box's witness is missing");
      (*next)++;
    }
    arraysem_put_item(s, typed, next);
    arraysem_fmt_expect(s, ')');
    return;
  }
  if (arraysem_fmt_word(s, "box")) {
    int64_t w = arraysem_fmt_count(s), wits[64];
    for (int64_t i = 0; i < w; i++) {
      if (*next >= arraysem_nsource_results || arraysem_source_results[*next].rank != 0) arraysem_unfit("a box's witness is missing");
      wits[i] = arraysem_source_results[(*next)++].data[0];
    }
    arraysem_open_box(typed, wits, w);
    arraysem_put_item(s, typed, next);
    putchar(')');
    arraysem_fmt_expect(s, ')');
    return;
  }
  if (!arraysem_fmt_word(s, "boxes")) arraysem_unfit("the format is malformed");
  arraysem_boxes b;
  b.typed = typed, b.p = 0, b.off = 0;
  int64_t rank = arraysem_fmt_count(s);
  b.w = arraysem_fmt_count(s);
  if (b.w < 1 || b.w > 64 || *next + b.w >= arraysem_nsource_results) arraysem_unfit("a frame of boxes' witnesses or data are missing");
  b.ws = &arraysem_source_results[*next];
  b.data = &arraysem_source_results[*next + b.w];
  if (b.ws[0].rank != rank) arraysem_unfit("a frame of boxes' witnesses are not over the frame");
  *next += (int)b.w + 1;
  arraysem_fmt_expect(s, '(');
  b.dims = *s;
  while (**s != ')' && **s != 0) (*s)++;
  arraysem_fmt_expect(s, ')');
  b.atom = arraysem_fmt_atom(s);
  if (b.atom < 0) arraysem_unfit("a frame of boxes of boxes");
  arraysem_fmt_expect(s, ')');
  arraysem_put_boxes(&b, (int)rank, b.ws[0].shape, 0);
}

static void arraysem_print_source(const char *const *format, const char *const *graphic) {
  arraysem_graphic_text = graphic[0];
  const char *s = strchr(format[0], ':');
  if (s == nullptr) arraysem_unfit("the format names no source");
  bool typed = true;  // "SOURCE untyped:" prints boxes without witnesses
  for (const char *u = strstr(format[0], " untyped"); u != nullptr && u < s; u = nullptr) typed = false;
  s++;
  int next = 0;
  for (arraysem_fmt_space(&s); *s != 0; arraysem_fmt_space(&s)) {
    arraysem_put_item(&s, typed, &next);
    putchar('\n');
  }
  if (next != arraysem_nsource_results) arraysem_unfit("results are left over");
}
static void arraysem_finish() {
  for (int i = 0; i < arraysem_nvalues; i++) free(arraysem_values[i].data);
  for (int i = 0; i < arraysem_nbuffers; i++) free(arraysem_buffers[i]);
  for (int64_t i = 0; i < arraysem_nkept; i++) arraysem_cuda(cudaFree(arraysem_kept[i]), "cudaFree");
  free(arraysem_kept);
  fflush(stdout);
}
// ==== arraysem prelude: end ====

static const char *const arraysem_sites[] = {
    /* 0 */ "examples/imp/kernel.imp:31:1: E-IMP-ALLOC: allocation of negative size %lld",
    /* 1 */ "examples/imp/kernel.imp:31:1: E-IMP-ALLOC: allocation of %lld integers exceeds the interpreter's heap limit of %lld",
    /* 2 */ "examples/imp/kernel.imp:32:1: E-IMP-KERNEL: kernel bound n = %lld is negative",
    /* 3 */ "examples/imp/kernel.imp:35:3: E-IMP-WRITE: memory block sq_mem is ⊥ (declared, never allocated or assigned)",
    /* 4 */ "examples/imp/kernel.imp:35:3: E-IMP-WRITE: sq_mem: offset %lld is outside its block of size %lld",
    /* 5 */ "examples/imp/kernel.imp:38:1: E-IMP-ALLOC: allocation of negative size %lld",
    /* 6 */ "examples/imp/kernel.imp:38:1: E-IMP-ALLOC: allocation of %lld integers exceeds the interpreter's heap limit of %lld",
    /* 7 */ "examples/imp/kernel.imp:39:1: E-IMP-KERNEL: kernel bound n = %lld is negative",
    /* 8 */ "examples/imp/kernel.imp:41:3: E-IMP-ALLOC: allocation of negative size %lld",
    /* 9 */ "examples/imp/kernel.imp:41:3: E-IMP-ALLOC: allocation of %lld integers exceeds the interpreter's heap limit of %lld",
    /* 10 */ "examples/imp/kernel.imp:41:3: E-IMP-ALLOC: the device heap has no room for %lld integers",
    /* 11 */ "examples/imp/kernel.imp:42:3: E-IMP-KERNEL: kernel bound m = %lld is negative",
    /* 12 */ "examples/imp/kernel.imp:45:5: E-IMP-WRITE: memory block row_mem is ⊥ (declared, never allocated or assigned)",
    /* 13 */ "examples/imp/kernel.imp:45:5: E-IMP-WRITE: row_mem: offset %lld is outside its block of size %lld",
    /* 14 */ "examples/imp/kernel.imp:47:3: E-IMP-KERNEL: kernel bound m = %lld is negative",
    /* 15 */ "examples/imp/kernel.imp:49:11: E-IMP-READ: memory block row_mem is ⊥ (declared, never allocated or assigned)",
    /* 16 */ "examples/imp/kernel.imp:49:5: E-IMP-READ: row_mem: offset %lld is outside its block of size %lld",
    /* 17 */ "examples/imp/kernel.imp:50:5: E-IMP-WRITE: memory block tab_mem is ⊥ (declared, never allocated or assigned)",
    /* 18 */ "examples/imp/kernel.imp:50:5: E-IMP-WRITE: tab_mem: offset %lld is outside its block of size %lld",
    /* 19 */ "examples/imp/kernel.imp:56:1: E-IMP-ALLOC: allocation of negative size %lld",
    /* 20 */ "examples/imp/kernel.imp:56:1: E-IMP-ALLOC: allocation of %lld integers exceeds the interpreter's heap limit of %lld",
    /* 21 */ "examples/imp/kernel.imp:57:1: E-IMP-KERNEL: kernel bound m = %lld is negative",
    /* 22 */ "examples/imp/kernel.imp:58:3: E-IMP-WRITE: memory block sevens_mem is ⊥ (declared, never allocated or assigned)",
    /* 23 */ "examples/imp/kernel.imp:58:3: E-IMP-WRITE: sevens_mem: offset %lld is outside its block of size %lld",
    /* 24 */ "examples/imp/kernel.imp:61:1: E-IMP-ALLOC: allocation of negative size %lld",
    /* 25 */ "examples/imp/kernel.imp:61:1: E-IMP-ALLOC: allocation of %lld integers exceeds the interpreter's heap limit of %lld",
    /* 26 */ "examples/imp/kernel.imp:62:1: E-IMP-KERNEL: kernel bound n = %lld is negative",
    /* 27 */ "examples/imp/kernel.imp:64:9: E-IMP-READ: memory block sq_mem is ⊥ (declared, never allocated or assigned)",
    /* 28 */ "examples/imp/kernel.imp:64:3: E-IMP-READ: sq_mem: offset %lld is outside its block of size %lld",
    /* 29 */ "examples/imp/kernel.imp:65:3: E-IMP-WRITE: memory block sq_res_mem is ⊥ (declared, never allocated or assigned)",
    /* 30 */ "examples/imp/kernel.imp:65:3: E-IMP-WRITE: sq_res_mem: offset %lld is outside its block of size %lld",
    /* 31 */ "examples/imp/kernel.imp:68:1: E-IMP-ALLOC: allocation of negative size %lld",
    /* 32 */ "examples/imp/kernel.imp:68:1: E-IMP-ALLOC: allocation of %lld integers exceeds the interpreter's heap limit of %lld",
    /* 33 */ "examples/imp/kernel.imp:69:1: E-IMP-KERNEL: kernel bound n = %lld is negative",
    /* 34 */ "examples/imp/kernel.imp:70:3: E-IMP-KERNEL: kernel bound m = %lld is negative",
    /* 35 */ "examples/imp/kernel.imp:72:11: E-IMP-READ: memory block tab_mem is ⊥ (declared, never allocated or assigned)",
    /* 36 */ "examples/imp/kernel.imp:72:5: E-IMP-READ: tab_mem: offset %lld is outside its block of size %lld",
    /* 37 */ "examples/imp/kernel.imp:73:5: E-IMP-WRITE: memory block tab_res_mem is ⊥ (declared, never allocated or assigned)",
    /* 38 */ "examples/imp/kernel.imp:73:5: E-IMP-WRITE: tab_res_mem: offset %lld is outside its block of size %lld",
    /* 39 */ "examples/imp/kernel.imp:77:1: E-IMP-ALLOC: allocation of negative size %lld",
    /* 40 */ "examples/imp/kernel.imp:77:1: E-IMP-ALLOC: allocation of %lld integers exceeds the interpreter's heap limit of %lld",
    /* 41 */ "examples/imp/kernel.imp:78:1: E-IMP-KERNEL: kernel bound m = %lld is negative",
    /* 42 */ "examples/imp/kernel.imp:80:9: E-IMP-READ: memory block sevens_mem is ⊥ (declared, never allocated or assigned)",
    /* 43 */ "examples/imp/kernel.imp:80:3: E-IMP-READ: sevens_mem: offset %lld is outside its block of size %lld",
    /* 44 */ "examples/imp/kernel.imp:81:3: E-IMP-WRITE: memory block sevens_res_mem is ⊥ (declared, never allocated or assigned)",
    /* 45 */ "examples/imp/kernel.imp:81:3: E-IMP-WRITE: sevens_res_mem: offset %lld is outside its block of size %lld",
    /* 46 */ "examples/imp/kernel.imp:83:8: return: memory block sq_res_mem is ⊥ (declared, never allocated or assigned)",
    /* 47 */ "examples/imp/kernel.imp:83:8: return: size %lld is negative",
    /* 48 */ "examples/imp/kernel.imp:83:8: return: an array of more than %lld elements exceeds the interpreter's limit",
    /* 49 */ "examples/imp/kernel.imp:83:8: return: block sq_res_mem holds %lld integers, fewer than the %lld of its shape",
    /* 50 */ "examples/imp/kernel.imp:83:26: return: memory block tab_res_mem is ⊥ (declared, never allocated or assigned)",
    /* 51 */ "examples/imp/kernel.imp:83:26: return: size %lld is negative",
    /* 52 */ "examples/imp/kernel.imp:83:26: return: an array of more than %lld elements exceeds the interpreter's limit",
    /* 53 */ "examples/imp/kernel.imp:83:26: return: block tab_res_mem holds %lld integers, fewer than the %lld of its shape",
    /* 54 */ "examples/imp/kernel.imp:83:48: return: memory block sevens_res_mem is ⊥ (declared, never allocated or assigned)",
    /* 55 */ "examples/imp/kernel.imp:83:48: return: size %lld is negative",
    /* 56 */ "examples/imp/kernel.imp:83:48: return: an array of more than %lld elements exceeds the interpreter's limit",
    /* 57 */ "examples/imp/kernel.imp:83:48: return: block sevens_res_mem holds %lld integers, fewer than the %lld of its shape",
    nullptr,
};
static const char *const arraysem_inputs[] = {"n", "m", nullptr};
static const char *const arraysem_defaults[] = {nullptr};

__global__ void arraysem_kernel_1(arraysem_error *err, int64_t bound, arraysem_block sq_mem) {
    int64_t i = i64_add(i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), (int64_t)threadIdx.x), 1);
    if (i > bound) {
        return;
    }
    int64_t s = 0;
    // var s : int
    s = 0;
    // s <- i * i
    s = i64_mul(i, i);
    // sq_mem[i - 1] <- s
    if (sq_mem.p == nullptr) {
        arraysem_trap(err, 3, 0, 0);
        return;
    }
    int64_t offset = i64_sub(i, 1);
    int64_t value = s;
    if ((offset < 0) || (offset >= sq_mem.n)) {
        arraysem_trap(err, 4, offset, sq_mem.n);
        return;
    }
    sq_mem.p[offset] = value;
}

__global__ void arraysem_kernel_2(arraysem_error *err, int64_t bound, int64_t m, arraysem_block tab_mem) {
    int64_t i = i64_add(i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), (int64_t)threadIdx.x), 1);
    if (i > bound) {
        return;
    }
    arraysem_block row_mem = {nullptr, 0};
    int64_t *block = nullptr;
    // var row_mem : mem
    row_mem.p = nullptr;
    row_mem.n = 0;
    // row_mem <- alloc m
    int64_t size = m;
    if (size < 0) {
        arraysem_trap(err, 8, size, 0);
        return;
    }
    if (size > arraysem_max_block) {
        arraysem_trap(err, 9, size, arraysem_max_block);
        return;
    }
    block = arraysem_device_alloc(size);
    if (block == nullptr) {
        arraysem_trap(err, 10, size, 0);
        return;
    }
    row_mem.p = block;
    row_mem.n = size;
    // kernel j <= m do … done (examples/imp/kernel.imp:42:3)
    int64_t bound_1 = m;
    if (bound_1 < 0) {
        arraysem_trap(err, 11, bound_1, 0);
        return;
    }
    for (int64_t j = 1; j <= bound_1; j++) {
        int64_t p = 0;
        // var p : int
        p = 0;
        // p <- i * j
        p = i64_mul(i, j);
        // row_mem[j - 1] <- p
        if (row_mem.p == nullptr) {
            arraysem_trap(err, 12, 0, 0);
            return;
        }
        int64_t offset = i64_sub(j, 1);
        int64_t value = p;
        if ((offset < 0) || (offset >= row_mem.n)) {
            arraysem_trap(err, 13, offset, row_mem.n);
            return;
        }
        row_mem.p[offset] = value;
    }
    // kernel j1 <= m do … done (examples/imp/kernel.imp:47:3)
    int64_t bound_2 = m;
    if (bound_2 < 0) {
        arraysem_trap(err, 14, bound_2, 0);
        return;
    }
    for (int64_t j1 = 1; j1 <= bound_2; j1++) {
        int64_t t2 = 0;
        // var t2 : int
        t2 = 0;
        // t2 <- row_mem[j1 - 1]
        if (row_mem.p == nullptr) {
            arraysem_trap(err, 15, 0, 0);
            return;
        }
        int64_t offset_1 = i64_sub(j1, 1);
        if ((offset_1 < 0) || (offset_1 >= row_mem.n)) {
            arraysem_trap(err, 16, offset_1, row_mem.n);
            return;
        }
        t2 = row_mem.p[offset_1];
        // tab_mem[i * m + j1 - m - 1] <- t2
        if (tab_mem.p == nullptr) {
            arraysem_trap(err, 17, 0, 0);
            return;
        }
        int64_t offset_2 = i64_sub(i64_sub(i64_add(i64_mul(i, m), j1), m), 1);
        int64_t value_1 = t2;
        if ((offset_2 < 0) || (offset_2 >= tab_mem.n)) {
            arraysem_trap(err, 18, offset_2, tab_mem.n);
            return;
        }
        tab_mem.p[offset_2] = value_1;
    }
    arraysem_device_free(block);
}

__global__ void arraysem_kernel_3(arraysem_error *err, int64_t bound, arraysem_block sevens_mem, int64_t k) {
    int64_t j = i64_add(i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), (int64_t)threadIdx.x), 1);
    if (j > bound) {
        return;
    }
    // sevens_mem[j - 1] <- k
    if (sevens_mem.p == nullptr) {
        arraysem_trap(err, 22, 0, 0);
        return;
    }
    int64_t offset = i64_sub(j, 1);
    int64_t value = k;
    if ((offset < 0) || (offset >= sevens_mem.n)) {
        arraysem_trap(err, 23, offset, sevens_mem.n);
        return;
    }
    sevens_mem.p[offset] = value;
}

__global__ void arraysem_kernel_4(arraysem_error *err, int64_t bound, arraysem_block sq_mem, arraysem_block sq_res_mem) {
    int64_t j3 = i64_add(i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), (int64_t)threadIdx.x), 1);
    if (j3 > bound) {
        return;
    }
    int64_t t4 = 0;
    // var t4 : int
    t4 = 0;
    // t4 <- sq_mem[j3 - 1]
    if (sq_mem.p == nullptr) {
        arraysem_trap(err, 27, 0, 0);
        return;
    }
    int64_t offset = i64_sub(j3, 1);
    if ((offset < 0) || (offset >= sq_mem.n)) {
        arraysem_trap(err, 28, offset, sq_mem.n);
        return;
    }
    t4 = sq_mem.p[offset];
    // sq_res_mem[j3 - 1] <- t4
    if (sq_res_mem.p == nullptr) {
        arraysem_trap(err, 29, 0, 0);
        return;
    }
    int64_t offset_1 = i64_sub(j3, 1);
    int64_t value = t4;
    if ((offset_1 < 0) || (offset_1 >= sq_res_mem.n)) {
        arraysem_trap(err, 30, offset_1, sq_res_mem.n);
        return;
    }
    sq_res_mem.p[offset_1] = value;
}

__global__ void arraysem_kernel_5(arraysem_error *err, int64_t bound, int64_t m, arraysem_block tab_mem, arraysem_block tab_res_mem) {
    int64_t j5 = i64_add(i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), (int64_t)threadIdx.x), 1);
    if (j5 > bound) {
        return;
    }
    // kernel j6 <= m do … done (examples/imp/kernel.imp:70:3)
    int64_t bound_1 = m;
    if (bound_1 < 0) {
        arraysem_trap(err, 34, bound_1, 0);
        return;
    }
    for (int64_t j6 = 1; j6 <= bound_1; j6++) {
        int64_t t7 = 0;
        // var t7 : int
        t7 = 0;
        // t7 <- tab_mem[j5 * m + j6 - m - 1]
        if (tab_mem.p == nullptr) {
            arraysem_trap(err, 35, 0, 0);
            return;
        }
        int64_t offset = i64_sub(i64_sub(i64_add(i64_mul(j5, m), j6), m), 1);
        if ((offset < 0) || (offset >= tab_mem.n)) {
            arraysem_trap(err, 36, offset, tab_mem.n);
            return;
        }
        t7 = tab_mem.p[offset];
        // tab_res_mem[j5 * m + j6 - m - 1] <- t7
        if (tab_res_mem.p == nullptr) {
            arraysem_trap(err, 37, 0, 0);
            return;
        }
        int64_t offset_1 = i64_sub(i64_sub(i64_add(i64_mul(j5, m), j6), m), 1);
        int64_t value = t7;
        if ((offset_1 < 0) || (offset_1 >= tab_res_mem.n)) {
            arraysem_trap(err, 38, offset_1, tab_res_mem.n);
            return;
        }
        tab_res_mem.p[offset_1] = value;
    }
}

__global__ void arraysem_kernel_6(arraysem_error *err, int64_t bound, arraysem_block sevens_mem, arraysem_block sevens_res_mem) {
    int64_t j8 = i64_add(i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), (int64_t)threadIdx.x), 1);
    if (j8 > bound) {
        return;
    }
    int64_t t9 = 0;
    // var t9 : int
    t9 = 0;
    // t9 <- sevens_mem[j8 - 1]
    if (sevens_mem.p == nullptr) {
        arraysem_trap(err, 42, 0, 0);
        return;
    }
    int64_t offset = i64_sub(j8, 1);
    if ((offset < 0) || (offset >= sevens_mem.n)) {
        arraysem_trap(err, 43, offset, sevens_mem.n);
        return;
    }
    t9 = sevens_mem.p[offset];
    // sevens_res_mem[j8 - 1] <- t9
    if (sevens_res_mem.p == nullptr) {
        arraysem_trap(err, 44, 0, 0);
        return;
    }
    int64_t offset_1 = i64_sub(j8, 1);
    int64_t value = t9;
    if ((offset_1 < 0) || (offset_1 >= sevens_res_mem.n)) {
        arraysem_trap(err, 45, offset_1, sevens_res_mem.n);
        return;
    }
    sevens_res_mem.p[offset_1] = value;
}

int main(int argc, char **argv) {
    arraysem_start(argc, argv, arraysem_inputs, arraysem_defaults, arraysem_sites);
    arraysem_error *err = nullptr;
    arraysem_cuda(cudaMalloc((void **)&err, sizeof(arraysem_error)), "cudaMalloc");
    arraysem_cuda(cudaMemset(err, 0, sizeof(arraysem_error)), "cudaMemset");
    int64_t n = 0;
    int64_t m = 0;
    arraysem_block sq_mem = {nullptr, 0};
    arraysem_block tab_mem = {nullptr, 0};
    int64_t k = 0;
    arraysem_block sevens_mem = {nullptr, 0};
    arraysem_block sq_res_mem = {nullptr, 0};
    arraysem_block tab_res_mem = {nullptr, 0};
    arraysem_block sevens_res_mem = {nullptr, 0};
    int64_t *block = nullptr;
    int64_t *block_1 = nullptr;
    int64_t *block_2 = nullptr;
    int64_t *block_3 = nullptr;
    int64_t *block_4 = nullptr;
    int64_t *block_5 = nullptr;
    n = arraysem_input_int("n");
    m = arraysem_input_int("m");
    // the device heap: the blocks the threads of kernel i (examples/imp/kernel.imp:39:1) allocate, from their bound and sizes
    arraysem_heap_limit(arraysem_heap_kernel(0, n, arraysem_heap_thread(0, m)));
    // var sq_mem : mem
    sq_mem.p = nullptr;
    sq_mem.n = 0;
    // sq_mem <- alloc n
    int64_t size = n;
    arraysem_reserve(size, 0, 1);
    arraysem_cuda(cudaMalloc((void **)&block, arraysem_alloc_bytes(size)), "cudaMalloc");
    arraysem_cuda(cudaMemset(block, 0, arraysem_alloc_bytes(size)), "cudaMemset");
    sq_mem.p = block;
    sq_mem.n = size;
    // kernel i <= n do … done (examples/imp/kernel.imp:32:1)
    int64_t bound = n;
    if (bound < 0) {
        arraysem_fail(2, bound, 0);
    }
    if (bound > 0) {
        ARRAYSEM_LAUNCH(arraysem_kernel_1, arraysem_grid(bound), arraysem_threads_per_block, err, bound, sq_mem);
        arraysem_sync(err, "examples/imp/kernel.imp:32:1: kernel i");
    }
    // var tab_mem : mem
    tab_mem.p = nullptr;
    tab_mem.n = 0;
    // tab_mem <- alloc m * n
    int64_t size_1 = i64_mul(m, n);
    arraysem_reserve(size_1, 5, 6);
    arraysem_cuda(cudaMalloc((void **)&block_1, arraysem_alloc_bytes(size_1)), "cudaMalloc");
    arraysem_cuda(cudaMemset(block_1, 0, arraysem_alloc_bytes(size_1)), "cudaMemset");
    tab_mem.p = block_1;
    tab_mem.n = size_1;
    // kernel i <= n do … done (examples/imp/kernel.imp:39:1)
    int64_t bound_1 = n;
    if (bound_1 < 0) {
        arraysem_fail(7, bound_1, 0);
    }
    if (bound_1 > 0) {
        ARRAYSEM_LAUNCH(arraysem_kernel_2, arraysem_grid(bound_1), arraysem_threads_per_block, err, bound_1, m, tab_mem);
        arraysem_sync(err, "examples/imp/kernel.imp:39:1: kernel i");
    }
    // var k : int
    k = 0;
    // k <- 7
    k = 7;
    // var sevens_mem : mem
    sevens_mem.p = nullptr;
    sevens_mem.n = 0;
    // sevens_mem <- alloc m
    int64_t size_2 = m;
    arraysem_reserve(size_2, 19, 20);
    arraysem_cuda(cudaMalloc((void **)&block_2, arraysem_alloc_bytes(size_2)), "cudaMalloc");
    arraysem_cuda(cudaMemset(block_2, 0, arraysem_alloc_bytes(size_2)), "cudaMemset");
    sevens_mem.p = block_2;
    sevens_mem.n = size_2;
    // kernel j <= m do … done (examples/imp/kernel.imp:57:1)
    int64_t bound_2 = m;
    if (bound_2 < 0) {
        arraysem_fail(21, bound_2, 0);
    }
    if (bound_2 > 0) {
        ARRAYSEM_LAUNCH(arraysem_kernel_3, arraysem_grid(bound_2), arraysem_threads_per_block, err, bound_2, sevens_mem, k);
        arraysem_sync(err, "examples/imp/kernel.imp:57:1: kernel j");
    }
    // var sq_res_mem : mem
    sq_res_mem.p = nullptr;
    sq_res_mem.n = 0;
    // sq_res_mem <- alloc n
    int64_t size_3 = n;
    arraysem_reserve(size_3, 24, 25);
    arraysem_cuda(cudaMalloc((void **)&block_3, arraysem_alloc_bytes(size_3)), "cudaMalloc");
    arraysem_cuda(cudaMemset(block_3, 0, arraysem_alloc_bytes(size_3)), "cudaMemset");
    sq_res_mem.p = block_3;
    sq_res_mem.n = size_3;
    // kernel j3 <= n do … done (examples/imp/kernel.imp:62:1)
    int64_t bound_3 = n;
    if (bound_3 < 0) {
        arraysem_fail(26, bound_3, 0);
    }
    if (bound_3 > 0) {
        ARRAYSEM_LAUNCH(arraysem_kernel_4, arraysem_grid(bound_3), arraysem_threads_per_block, err, bound_3, sq_mem, sq_res_mem);
        arraysem_sync(err, "examples/imp/kernel.imp:62:1: kernel j3");
    }
    // var tab_res_mem : mem
    tab_res_mem.p = nullptr;
    tab_res_mem.n = 0;
    // tab_res_mem <- alloc m * n
    int64_t size_4 = i64_mul(m, n);
    arraysem_reserve(size_4, 31, 32);
    arraysem_cuda(cudaMalloc((void **)&block_4, arraysem_alloc_bytes(size_4)), "cudaMalloc");
    arraysem_cuda(cudaMemset(block_4, 0, arraysem_alloc_bytes(size_4)), "cudaMemset");
    tab_res_mem.p = block_4;
    tab_res_mem.n = size_4;
    // kernel j5 <= n do … done (examples/imp/kernel.imp:69:1)
    int64_t bound_4 = n;
    if (bound_4 < 0) {
        arraysem_fail(33, bound_4, 0);
    }
    if (bound_4 > 0) {
        ARRAYSEM_LAUNCH(arraysem_kernel_5, arraysem_grid(bound_4), arraysem_threads_per_block, err, bound_4, m, tab_mem, tab_res_mem);
        arraysem_sync(err, "examples/imp/kernel.imp:69:1: kernel j5");
    }
    // var sevens_res_mem : mem
    sevens_res_mem.p = nullptr;
    sevens_res_mem.n = 0;
    // sevens_res_mem <- alloc m
    int64_t size_5 = m;
    arraysem_reserve(size_5, 39, 40);
    arraysem_cuda(cudaMalloc((void **)&block_5, arraysem_alloc_bytes(size_5)), "cudaMalloc");
    arraysem_cuda(cudaMemset(block_5, 0, arraysem_alloc_bytes(size_5)), "cudaMemset");
    sevens_res_mem.p = block_5;
    sevens_res_mem.n = size_5;
    // kernel j8 <= m do … done (examples/imp/kernel.imp:78:1)
    int64_t bound_5 = m;
    if (bound_5 < 0) {
        arraysem_fail(41, bound_5, 0);
    }
    if (bound_5 > 0) {
        ARRAYSEM_LAUNCH(arraysem_kernel_6, arraysem_grid(bound_5), arraysem_threads_per_block, err, bound_5, sevens_mem, sevens_res_mem);
        arraysem_sync(err, "examples/imp/kernel.imp:78:1: kernel j8");
    }
    // return: every result is checked before any is printed
    if (sq_res_mem.p == nullptr) {
        arraysem_fail(46, 0, 0);
    }
    int64_t dim = n;
    int64_t count = arraysem_count(47, 48, 1, dim);
    if (sq_res_mem.n < count) {
        arraysem_fail(49, sq_res_mem.n, count);
    }
    int64_t *result = arraysem_host_buffer(count);
    arraysem_cuda(cudaMemcpy(result, sq_res_mem.p, arraysem_copy_bytes(count), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (tab_res_mem.p == nullptr) {
        arraysem_fail(50, 0, 0);
    }
    int64_t dim_1 = n;
    int64_t dim_2 = m;
    int64_t count_1 = arraysem_count(51, 52, 2, dim_1, dim_2);
    if (tab_res_mem.n < count_1) {
        arraysem_fail(53, tab_res_mem.n, count_1);
    }
    int64_t *result_1 = arraysem_host_buffer(count_1);
    arraysem_cuda(cudaMemcpy(result_1, tab_res_mem.p, arraysem_copy_bytes(count_1), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (sevens_res_mem.p == nullptr) {
        arraysem_fail(54, 0, 0);
    }
    int64_t dim_3 = m;
    int64_t count_2 = arraysem_count(55, 56, 1, dim_3);
    if (sevens_res_mem.n < count_2) {
        arraysem_fail(57, sevens_res_mem.n, count_2);
    }
    int64_t *result_2 = arraysem_host_buffer(count_2);
    arraysem_cuda(cudaMemcpy(result_2, sevens_res_mem.p, arraysem_copy_bytes(count_2), cudaMemcpyDeviceToHost), "cudaMemcpy");
    arraysem_print_array(result, 1, dim);
    arraysem_print_array(result_1, 2, dim_1, dim_2);
    arraysem_print_array(result_2, 1, dim_3);
    arraysem_cuda(cudaFree(block), "cudaFree");
    arraysem_cuda(cudaFree(block_1), "cudaFree");
    arraysem_cuda(cudaFree(block_2), "cudaFree");
    arraysem_cuda(cudaFree(block_3), "cudaFree");
    arraysem_cuda(cudaFree(block_4), "cudaFree");
    arraysem_cuda(cudaFree(block_5), "cudaFree");
    arraysem_cuda(cudaFree(err), "cudaFree");
    arraysem_finish();
    return 0;
}
