//! Where there is no CUDA driver, asking for the best device costs nothing: the CPU, and
//! libtorch's CUDA backend (a third of a gigabyte of mappings) never loaded. A test process of
//! its own, so nothing else in it has asked libtorch about CUDA first.

#[cfg(target_os = "linux")]
#[test]
fn without_a_cuda_driver_the_backend_stays_unloaded_and_the_cpu_is_chosen() {
    use std::ffi::CString;

    let driver = CString::new("libcuda.so.1").unwrap();
    // SAFETY: a NUL-terminated name; a handle it returns is closed again at once.
    let has_driver = unsafe {
        let handle = libc::dlopen(driver.as_ptr(), libc::RTLD_LAZY);
        if !handle.is_null() {
            libc::dlclose(handle);
        }
        !handle.is_null()
    };
    if has_driver {
        eprintln!("a CUDA driver is installed here: the test is for machines without one");
        return;
    }
    let mapped = |library: &str| {
        std::fs::read_to_string("/proc/self/maps")
            .unwrap()
            .lines()
            .any(|line| line.ends_with(library))
    };
    assert!(!mapped("libtorch_cuda.so"), "loaded before anything asked");
    assert_eq!(nn::best_device(), tch::Device::Cpu);
    assert!(!nn::cuda_is_available());
    assert!(
        !mapped("libtorch_cuda.so"),
        "the CUDA backend was loaded on a machine without a driver"
    );
}
