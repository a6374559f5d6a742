/*
 * cpp-names: C++ names for the demangler. main -> ns::run(double) -> a
 * lambda in ns::run -> ns::Worker<int>::spin(double), which spins for the
 * whole duration: nearly 100% of the samples end in
 * ns::Worker<int>::spin, under ns::run(double)::{lambda(double)#1}.
 */
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

double now()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

} // namespace

volatile unsigned long sink;

namespace ns {

template <typename T> class Worker {
public:
	__attribute__((noinline)) T spin(double seconds);
};

template <typename T> T Worker<T>::spin(double seconds)
{
	double end = now() + seconds;
	T n = 0;

	while (now() < end) {
		for (unsigned long i = 0; i < 100000; i++)
			sink += i;
		n++;
	}
	return n;
}

template class Worker<int>;

/* inline: clang then mangles the lambda as g++ does ({lambda(double)#1}) */
inline __attribute__((noinline)) int run(double seconds)
{
	Worker<int> w;
	auto go = [&w](double s) __attribute__((noinline)) { return w.spin(s); };

	return go(seconds);
}

} // namespace ns

int main(int argc, char **argv)
{
	char *end;
	double d = argc > 1 ? strtod(argv[1], &end) : -1;

	if (argc < 2 || end == argv[1] || *end || !(d >= 0) || d > 1e6) {
		fprintf(stderr, "usage: %s SECONDS\n", argv[0]);
		return 2;
	}
	return ns::run(d) < 0;
}
