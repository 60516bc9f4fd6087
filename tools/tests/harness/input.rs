//! The inputs of the harness: the annotated host loops of
//! [`super::common::pipelines`], the same loops unannotated
//! ([`super::unannotated`]), and `gpu.func` kernels ([`super::gpu`]).
//! Each prints a program whose entry is `@kernel(%A, %out, %n, %c)` and
//! whose symbols all start with `@kernel`.

use apipe_passes::software_pipeline::{PipelineOptions, ScheduleOrder};

use super::{
    common::{
        pipelines::{self, Pipeline, Scenario},
        Rng,
    },
    gpu::{self, GpuPipeline},
    unannotated::{self, Stages},
};

/// The kinds of inputs, each drawn from its own seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An annotated host loop.
    Host,
    /// A host loop without annotations (`num-stages`).
    HostUnannotated,
    /// A `gpu.func` kernel, annotated.
    Gpu,
    /// A `gpu.func` kernel without annotations (`num-stages`).
    GpuUnannotated,
}

/// A generated input.
#[derive(Clone, Debug)]
pub enum Input {
    /// A host loop, how it is scheduled, and whether with
    /// `order=copies-first` (else the CUTLASS order; scheduled loops only).
    Host(Pipeline, Stages, bool),
    /// A kernel.
    Gpu(GpuPipeline),
}

impl Input {
    /// Draws an input of `kind`.
    pub fn generate(kind: Kind, rng: &mut Rng) -> Self {
        match kind {
            Kind::Host => Input::Host(pipelines::generate(rng), Stages::Annotated, false),
            Kind::HostUnannotated => {
                let pipeline = pipelines::generate(rng);
                let stages = Stages::draw(rng);
                Input::Host(pipeline, stages, rng.below(3) == 0)
            }
            Kind::Gpu => Input::Gpu(gpu::generate(rng, false)),
            Kind::GpuUnannotated => Input::Gpu(gpu::generate(rng, true)),
        }
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        match self {
            Input::Host(_, Stages::Annotated, _) => Kind::Host,
            Input::Host(..) => Kind::HostUnannotated,
            Input::Gpu(g) if g.stages == Stages::Annotated => Kind::Gpu,
            Input::Gpu(_) => Kind::GpuUnannotated,
        }
    }

    /// Whether it launches a kernel.
    pub fn is_gpu(&self) -> bool {
        matches!(self, Input::Gpu(_))
    }

    /// The program (module body ops).
    pub fn text(&self) -> String {
        match self {
            Input::Host(p, Stages::Annotated, _) => p.kernel(),
            Input::Host(p, stages, _) => unannotated::strip(&p.kernel(), *stages),
            Input::Gpu(g) => g.kernel(),
        }
    }

    /// The options of `apipe-software-pipeline` for it.
    pub fn options(&self) -> PipelineOptions {
        match self {
            Input::Host(_, stages, copies_first) => PipelineOptions {
                num_stages: stages.option(),
                order: if *copies_first {
                    ScheduleOrder::CopiesFirst
                } else {
                    ScheduleOrder::Cutlass
                },
                ..PipelineOptions::default()
            },
            Input::Gpu(g) => g.options(),
        }
    }

    /// Elements of `%A`.
    pub fn source_size(&self) -> i64 {
        match self {
            Input::Host(p, ..) => p.source_size(),
            Input::Gpu(g) => g.source_size(),
        }
    }

    /// Elements of `%out`.
    pub fn output_size(&self) -> i64 {
        match self {
            Input::Host(p, ..) => p.output_size(),
            Input::Gpu(g) => g.output_size(),
        }
    }

    /// The arguments to run it with.
    pub fn scenarios(&self) -> Vec<Scenario> {
        match self {
            Input::Host(p, ..) => p.scenarios(),
            Input::Gpu(g) => g.scenarios(),
        }
    }
}
