/** The session side of the agents table (src/agents): the table itself, and the shapes the session search reads. */
export { agents as sessionAgents, AGENT_NAMES, agentNamed, agentOfCommand, isBuiltIn, registerAgent, type AgentName } from '../../agents/index.js';
export type { SessionAgent, SessionFile, ResumeRequest, Env } from './agent.js';
